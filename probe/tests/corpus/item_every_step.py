"""The folklore's loop: loss.item() after every optimizer step, for a running mean."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data()
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
total = 0.0
for step in range(40):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    total += loss.item()  # site
print(f"mean loss {total / 40:.4f}")
