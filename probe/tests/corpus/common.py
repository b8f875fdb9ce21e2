"""What the corpus scripts share: a small model, its data, a seed, and the device they train on
(SYNCTAX_CORPUS_DEVICE, the CPU by default; check.py --cuda runs them on the GPU). Not a pattern of
its own."""
import os

import torch
import torch.nn as nn

DEVICE = os.environ.get("SYNCTAX_CORPUS_DEVICE", "cpu")


def model_and_data(batch=16, inputs=32, classes=4):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(inputs, 64), nn.ReLU(), nn.Linear(64, classes))
    x = torch.randn(batch, inputs)
    y = torch.randint(0, classes, (batch,))
    return net.to(DEVICE), x.to(DEVICE), y.to(DEVICE)
