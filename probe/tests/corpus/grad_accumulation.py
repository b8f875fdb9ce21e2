"""Gradient accumulation: four micro-batches a step, each micro-loss read after its backward."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data(batch=32)
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(40):
    opt.zero_grad()
    for micro in range(4):
        part = slice(8 * micro, 8 * micro + 8)
        loss = F.cross_entropy(net(x[part]), y[part]) / 4
        loss.backward()
        last = loss.item()  # site
    opt.step()
