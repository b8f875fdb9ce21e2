"""Says what Python told it about itself, then trains a few steps; --chdir-here changes to its own
folder first (os.chdir(os.path.dirname(__file__)), as many scripts do), --chdir DIR to another
(as Hydra does), before training.

    where_am_i.py [--steps N] [--chdir-here] [--chdir DIR]
"""
import argparse
import os
import sys
import warnings

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=5)
parser.add_argument("--chdir-here", action="store_true")
parser.add_argument("--chdir")
args = parser.parse_args()

print(f"__file__={__file__}")
print(f"argv={sys.argv}")
print(f"path0={sys.path[0]}")
print(f"name={__name__} spec={__spec__}")
with warnings.catch_warnings(record=True) as caught:
    warnings.warn("in __main__", DeprecationWarning)  # shown by default in __main__ only
print(f"deprecation warnings shown={len(caught)}")
if args.chdir_here:
    os.chdir(os.path.dirname(__file__))
if args.chdir:
    os.makedirs(args.chdir, exist_ok=True)
    os.chdir(args.chdir)
print(f"cwd={os.getcwd()}", flush=True)

net = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 2)
for _ in range(args.steps):
    opt.zero_grad()
    torch.nn.functional.mse_loss(net(x), y).backward()
    opt.step()
