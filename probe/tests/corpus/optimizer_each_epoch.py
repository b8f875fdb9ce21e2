"""A new optimizer each epoch (a schedule restarted by building it again), Adam's own step
counters on the CPU: only the loop's item() is a sync."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data()
for epoch in range(4):
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(10):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        running = loss.item()  # site
