"""Forward passes only: no optimizer, so no step for the probe to find."""
import torch

net = torch.nn.Linear(8, 2)
with torch.no_grad():
    for _ in range(5):
        out = net(torch.randn(4, 8))
print("evaluated", flush=True)
