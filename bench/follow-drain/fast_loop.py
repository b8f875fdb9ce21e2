"""A training loop on the CPU as small as a loop gets (a linear layer, SGD, no data loading): under
the probe with --calib-every 1, a folder written as fast as the probe writes one, for
bench/follow-drain --probe.

    fast_loop.py [--seconds S]
"""
import argparse
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--seconds", type=float, default=20.0)
args = p.parse_args()
torch.set_num_threads(1)
net = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.01)
x, y = torch.randn(2, 4), torch.randn(2, 1)
end = time.monotonic() + args.seconds
while time.monotonic() < end:
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
