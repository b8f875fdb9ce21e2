"""Writes the file named by its first argument: whether the script ran at all."""
import sys

with open(sys.argv[1], "w") as f:
    f.write("ran\n")
