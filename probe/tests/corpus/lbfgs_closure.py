"""LBFGS, stepped through a closure that reads the loss before its backward: the closure's first
call is the step's forward and backward, its later calls the optimizer's own work."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data()
opt = torch.optim.LBFGS(net.parameters(), lr=0.1, max_iter=3, history_size=3)
for step in range(40):
    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        seen = loss.item()  # site
        loss.backward()
        return loss
    opt.step(closure)
