#!/usr/bin/env python3
"""Train a small transformer encoder on synthetic tokens, as a user's script would (see loops.py):

    python3 bench/probe/train_transformer.py [--steps N] [--host-work-ms X] [--device cpu]
    python3 -m synctax_probe --ab item --out DIR bench/probe/train_transformer.py --host-work-ms X
"""
from loops import main

if __name__ == "__main__":
    main("transformer")
