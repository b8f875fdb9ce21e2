#!/usr/bin/env python3
"""Record a loop that syncs every step the way a user writes it, and measure what that sync costs.

torchvision's ResNet-50 (batch 64, 224x224, SGD) recorded with
`torch.profiler.schedule(wait=1, warmup=2, active=3)` and `tensorboard_trace_handler`, without
stacks, with `loss.item()` after `optimizer.step()` and before `prof.step()`. Then, unprofiled, the
same loop with and without that `loss.item()` in blocks of steps, rounds of random order, paired:
`measured.json` holds the geometric mean of the paired ratios with a bootstrap 95% interval, the
saving a what-if of the trace should predict for removing the sync.

usage: record-item-every-step.py OUT_DIR [--rounds N] [--steps-per-block N]
"""
import argparse
import json
import math
import os
import random
import time

import torch
import torch.nn.functional as F
import torchvision
from torch.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler


def make_loop(device):
    torch.manual_seed(0)
    model = torchvision.models.resnet50(num_classes=1000).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(64, 3, 224, 224, device=device)
    y = torch.randint(0, 1000, (64,), device=device)

    def step(item):
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        if item:
            loss.item()

    return step


def block_ms(step, item, steps):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        step(item)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3 / steps


def bootstrap(logs, resamples=4000, seed=1):
    rng = random.Random(seed)
    n = len(logs)
    means = sorted(sum(logs[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    lo, hi = means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]
    return 100 * (math.exp(lo) - 1), 100 * (math.exp(hi) - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--steps-per-block", type=int, default=10)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    device = torch.device("cuda")
    step = make_loop(device)
    for _ in range(15):
        step(True)

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=1, warmup=2, active=3),
                 on_trace_ready=tensorboard_trace_handler(args.out, worker_name="resnet50-item-every-step")) as prof:
        for _ in range(6):
            step(True)
            prof.step()

    rng = random.Random(7)
    rows = []
    for r in range(args.rounds):
        order = ["none", "item"]
        rng.shuffle(order)
        ms = {style: block_ms(step, style == "item", args.steps_per_block) for style in order}
        rows.append({"round": r, "order": order, "none_ms": ms["none"], "item_ms": ms["item"]})
    logs = [math.log(row["item_ms"] / row["none_ms"]) for row in rows]
    tax = 100 * (math.exp(sum(logs) / len(logs)) - 1)
    lo, hi = bootstrap(logs)
    measured = {
        "loop": "torchvision resnet50, batch 64, 224x224, SGD momentum 0.9, loss.item() after optimizer.step()",
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0),
        "steps_per_block": args.steps_per_block,
        "rounds": rows,
        "item_tax_pct": tax,
        "item_tax_ci95_pct": [lo, hi],
        "none_ms_median": sorted(row["none_ms"] for row in rows)[len(rows) // 2],
    }
    with open(os.path.join(args.out, "measured.json"), "w") as f:
        json.dump(measured, f, indent=2)
    print(f"item: {tax:+.1f}% [{lo:+.1f}, {hi:+.1f}] over {len(rows)} rounds; none {measured['none_ms_median']:.2f} ms")


if __name__ == "__main__":
    main()
