"""A wrapper optimizer as accelerate builds one: a torch.optim.Optimizer subclass that never calls
Optimizer.__init__ and steps the optimizer it wraps (its param_groups and state are the inner's).
The loss is read every step after the wrapper's step."""
import torch
import torch.nn.functional as F

from common import model_and_data


class WrappedOptimizer(torch.optim.Optimizer):
    def __init__(self, optimizer):  # no super().__init__(), as accelerate's AcceleratedOptimizer
        self.optimizer = optimizer

    @property
    def param_groups(self):
        return self.optimizer.param_groups

    @property
    def state(self):
        return self.optimizer.state

    def zero_grad(self, set_to_none=None):
        self.optimizer.zero_grad()

    def step(self, closure=None):
        self.optimizer.step(closure)


net, x, y = model_and_data()
opt = WrappedOptimizer(torch.optim.AdamW(net.parameters(), lr=0.01))
for step in range(40):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    value = loss.item()  # site
print(f"trained 40 steps, loss {value:.3f}")
