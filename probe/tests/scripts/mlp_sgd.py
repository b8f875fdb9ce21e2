"""A tiny MLP trained with SGD on random data, with the syncs a logging loop has. Each line that
syncs ends with a `# site: OP` comment, which the tests look for.

    mlp_sgd.py [--steps N] [--exit CODE] [--forever]
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=60)
parser.add_argument("--exit", type=int, default=0)
parser.add_argument("--forever", action="store_true")
parser.add_argument("--raise-at", type=int, default=-1)
args = parser.parse_args()

print(f"name={__name__} argv={sys.argv[1:]}", flush=True)
print("hello stderr", file=sys.stderr, flush=True)

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(16, 32)
y = torch.randint(0, 4, (16,))

step = 0
while args.forever or step < args.steps:
    if step == args.raise_at:
        raise ValueError(f"bad batch at step {step}")
    opt.zero_grad()
    logits = net(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    value = loss.item()  # site: item
    if step % 2 == 0:
        first = logits[0, :2].tolist()  # site: tolist
    if (loss > 100):  # site: bool
        print("diverged")
    scalar = float(loss.detach())  # site: float
    on_host = loss.detach().cpu()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    step += 1
print(f"trained {step} steps, loss {value:.3f}", flush=True)
sys.exit(args.exit)
