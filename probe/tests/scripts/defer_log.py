"""A tiny MLP trained with SGD that prints each step's loss as read (repr: every bit) and, at the
end, its weights' sum: what --ab defer may change (the loss read late in its blocks) and what it
must not (the training). Each line that syncs ends with a `# site: OP` comment.

    defer_log.py [--steps N]
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=60)
args = parser.parse_args()

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(16, 32)
y = torch.randint(0, 4, (16,))

for step in range(args.steps):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    value = loss.item()  # site: item
    if torch.isnan(loss):  # site: bool
        raise RuntimeError("NaN loss")
    loss.backward()
    opt.step()
    print(f"step {step} loss {value!r}")
total = torch.cat([p.detach().flatten() for p in net.parameters()]).double().sum()
print(f"weights {total.tolist()!r}")  # site: tolist
