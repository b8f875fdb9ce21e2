"""Accuracy and loss read with float() before backward, as many training loops log them."""
import torch
import torch.nn.functional as F

from common import model_and_data

net, x, y = model_and_data()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(40):
    opt.zero_grad()
    out = net(x)
    loss = F.cross_entropy(out, y)
    accuracy = float((out.argmax(1) == y).float().mean())  # site
    loss.backward()
    opt.step()
print(f"last accuracy {accuracy:.2f}")
