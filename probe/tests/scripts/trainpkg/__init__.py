"""A package whose module trains: run as python3 -m trainpkg.train."""
