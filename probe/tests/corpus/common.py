"""What the corpus scripts share: a small model, its data, a seed. Not a pattern of its own."""
import torch
import torch.nn as nn


def model_and_data(batch=16, inputs=32, classes=4):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(inputs, 64), nn.ReLU(), nn.Linear(64, classes))
    x = torch.randn(batch, inputs)
    y = torch.randint(0, classes, (batch,))
    return net, x, y
