"""A NaN guard on the loss before backward: a bool() of a tensor every step."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(40):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    if torch.isnan(loss):  # site
        raise RuntimeError("NaN loss")
    loss.backward()
    opt.step()
