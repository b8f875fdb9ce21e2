#!/usr/bin/env python3
"""Writes the TorchScript files the tests train and reject, with the python torch it runs under.

    /usr/bin/python3 tests/data/torchscript/make-models.py OUTDIR          # Debian's python3-torch
    python3 tests/data/torchscript/make-models.py OUTDIR --newer --vision  # a newer torch (GPU image)

Each file, what it is, and the config entry that runs it, is listed in README.md beside this script.
--newer adds a module that calls an operator Debian's LibTorch 1.13 does not have; --vision adds
torchvision's MobileNetV3-Small, scripted (or, without torchvision, MobileNetV2's layout written
here). Every file's zip records are listed on stdout.
"""
import argparse
import os
import zipfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, inputs: int = 32, width: int = 64, classes: int = 10):
        super().__init__()
        self.fc1 = nn.Linear(inputs, width)
        self.fc2 = nn.Linear(width, width)
        self.out = nn.Linear(width, classes)

    def forward(self, x):
        return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))


class SmallCNN(nn.Module):
    def __init__(self, classes: int = 10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        return self.head(x.mean(dim=(2, 3)))


class TokensAndFeatures(nn.Module):
    """Two inputs (int64 token ids, float features) and a regression output of 4 values."""

    def __init__(self, vocabulary: int = 100, width: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.features = nn.Linear(8, width)
        self.out = nn.Linear(2 * width, 4)

    def forward(self, tokens: torch.Tensor, features: torch.Tensor) -> torch.Tensor:
        joined = torch.cat([self.embed(tokens).mean(dim=1), F.relu(self.features(features))], dim=1)
        return self.out(joined)


class LogitsAndFeatures(nn.Module):
    """Returns a tuple: the loss needs one output tensor."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(x), x.mean(dim=1)


class Attention(nn.Module):
    """scaled_dot_product_attention exists from PyTorch 2.0 on."""

    def __init__(self, width: int = 16, classes: int = 10):
        super().__init__()
        self.qkv = nn.Linear(width, 3 * width)
        self.head = nn.Linear(width, classes)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return self.head(F.scaled_dot_product_attention(q, k, v).mean(dim=1))


class InvertedResidual(nn.Module):
    """MobileNetV2's block: expand 1x1, depthwise 3x3, project 1x1; a residual when shapes allow."""

    def __init__(self, inp: int, out: int, stride: int, expand: int):
        super().__init__()
        hidden = inp * expand
        self.residual = stride == 1 and inp == out
        self.block = nn.Sequential(
            nn.Conv2d(inp, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True), nn.Conv2d(hidden, out, 1, bias=False), nn.BatchNorm2d(out))

    def forward(self, x):
        y = self.block(x)
        return x + y if self.residual else y


class MobileNetV2Like(nn.Module):
    """MobileNetV2's layout (width 1.0, 17 blocks), written here for an image without torchvision."""

    def __init__(self, classes: int = 10):
        super().__init__()
        layers = [nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6(inplace=True)]
        inp = 32
        for expand, out, repeats, stride in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                             (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
            for i in range(repeats):
                layers.append(InvertedResidual(inp, out, stride if i == 0 else 1, expand))
                inp = out
        layers += [nn.Conv2d(inp, 1280, 1, bias=False), nn.BatchNorm2d(1280), nn.ReLU6(inplace=True)]
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(1280, classes)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--newer", action="store_true")
    parser.add_argument("--vision", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    written = []

    def save(module, name):
        path = os.path.join(args.out, name)
        module.save(path)
        written.append(path)

    save(torch.jit.script(MLP()), "mlp.pt")
    save(torch.jit.trace(SmallCNN().train(), torch.randn(2, 3, 32, 32)), "cnn.pt")
    save(torch.jit.script(TokensAndFeatures()), "tokens-and-features.pt")
    save(torch.jit.script(LogitsAndFeatures()), "tuple-output.pt")
    frozen = MLP()
    for p in frozen.parameters():
        p.requires_grad_(False)
    save(torch.jit.script(frozen), "frozen.pt")
    weights = os.path.join(args.out, "weights.pt")
    torch.save(MLP().state_dict(), weights)  # a torch.save file: weights, no TorchScript code
    written.append(weights)
    # mlp.pt with its file format version record set to 11: what a PyTorch writing a newer file
    # format than LibTorch 1.13 reads (up to 10) writes in its place. Debian's torch writes 3 here.
    with zipfile.ZipFile(os.path.join(args.out, "mlp.pt")) as src, zipfile.ZipFile(
        os.path.join(args.out, "newer-format.pt"), "w", zipfile.ZIP_STORED
    ) as out:
        for info in src.infolist():
            out.writestr(info, b"11\n" if info.filename.endswith("/version") else src.read(info.filename))
    written.append(os.path.join(args.out, "newer-format.pt"))
    with open(os.path.join(args.out, "not-torchscript.pt"), "w") as text:
        text.write("not a model\n")
    if args.newer:
        save(torch.jit.script(Attention()), "attention-torch2.pt")
    if args.vision:
        try:
            import torchvision

            save(torch.jit.script(torchvision.models.mobilenet_v3_small(num_classes=10)), "mobilenet_v3_small.pt")
            print("torchvision", torchvision.__version__)
        except ImportError:
            print("torchvision is not installed: MobileNetV2's layout written here instead (mobilenet_v2_like.pt)")
            save(torch.jit.script(MobileNetV2Like()), "mobilenet_v2_like.pt")

    print("torch", torch.__version__)
    for path in written:
        if not zipfile.is_zipfile(path):
            continue
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            records = {n.split("/", 1)[1]: z.read(n).decode(errors="replace").strip()
                       for n in names if n.endswith("version") or "byteorder" in n or "serialization_id" in n}
            print(os.path.basename(path), os.path.getsize(path), "bytes;", len(names), "records;", records)
            print("   ", " ".join(sorted(n.split("/", 1)[1] for n in names)[:40]))


if __name__ == "__main__":
    main()
