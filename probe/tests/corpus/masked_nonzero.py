"""Indices of the hard examples found with torch.nonzero each step, before backward."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(40):
    opt.zero_grad()
    per_sample = F.cross_entropy(net(x), y, reduction="none")
    hard = torch.nonzero(per_sample > per_sample.mean())  # site
    per_sample.mean().backward()
    opt.step()
