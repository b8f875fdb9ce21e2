#!/usr/bin/env python3
"""On the GPU machine: what one Python `.item()` costs, and how fast the next step's host runs,
in the places a training loop puts them. The what-if of `synctax-run trace` prices a read-back as
one number (`--sync-us`); this says which number, and whether the step after a read runs slower.

Every trial picks one context at random (seeded), so that the host's drift falls on all of them:

item contexts (the .item() alone is timed, µs):
  after_synchronize     torch.cuda.synchronize(), then .item() of a ready scalar
  after_host_work       synchronize, 500 µs of Python, then .item(): an idle GPU, nothing queued since
  after_drained_kernel  one small kernel, 500 µs of Python (it has long finished), then .item()
  after_drained_step    a training step, 500 µs of Python (its GPU work has finished), then loss.item()
  in_step               a training step, then loss.item() at once, as a loop that logs every step does
  second_item           .item(), then a second .item() at once

read after N launches (--launches): N small kernels (an add on a scalar), 2 ms of Python (they have
long finished), then the timed call: `scalar.item()`, `torch.cuda.synchronize()`, or after a training
step instead of the kernels, `loss.item()`, `loss.detach().item()` and `scalar.item()`: whether a
read costs more the more launches came since the last one, or the more the step left behind.

step contexts (the next step's host time alone is timed, µs; nothing waits for the GPU inside it):
  after_step            step, then the timed step: the steady loop
  after_synchronize     step, synchronize, then the timed step
  after_item            step, loss.item(), then the timed step: a loop that reads every step
  after_host_work       step, 500 µs of Python, then the timed step (the GPU has drained, no sync)

    python3 bench/python-sync-cost.py OUT.json [--launches] [MODEL...]   (default: tiny_mlp small_resnet)
"""
import importlib.util
import json
import os
import random
import statistics
import sys
import time

import torch
import torch.nn.functional as F

# The loops are scripts/record-traces.py's (its name has a dash: loaded by path).
SCRIPTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts")
spec = importlib.util.spec_from_file_location("record_traces", os.path.join(SCRIPTS, "record-traces.py"))
rt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rt)

SPIN_S = 500e-6


def spin(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def step(loop):
    """One step of the loop without a read; its loss."""
    loop.opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(loop.net(loop.x), loop.y)
    loss.backward()
    loop.opt.step()
    return loss


def timed_us(fn):
    t0 = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t0) * 1e-3


def item_trial(context, loop, scalar):
    if context == "after_synchronize":
        torch.cuda.synchronize()
        return timed_us(scalar.item)
    if context == "after_host_work":
        torch.cuda.synchronize()
        spin(SPIN_S)
        return timed_us(scalar.item)
    if context == "after_drained_kernel":
        scalar.add_(0)
        spin(SPIN_S)
        return timed_us(scalar.item)
    if context == "after_drained_step":
        loss = step(loop)
        spin(SPIN_S)
        return timed_us(loss.item)
    if context == "in_step":
        loss = step(loop)
        return timed_us(loss.item)
    if context == "second_item":
        scalar.item()
        return timed_us(scalar.item)
    raise ValueError(context)


def step_trial(context, loop):
    loss = step(loop)
    if context == "after_synchronize":
        torch.cuda.synchronize()
    elif context == "after_item":
        loss.item()
    elif context == "after_host_work":
        spin(SPIN_S)
    elif context != "after_step":
        raise ValueError(context)
    us = timed_us(lambda: step(loop))
    torch.cuda.synchronize()  # every trial from the same start: nothing queued
    return us


LAUNCHES = (0, 1, 8, 38, 128, 512, 1280)
DRAIN_S = 2e-3


def launches_trial(context, loop, scalar, counter):
    kind, n = context
    if kind.startswith("after_step"):
        loss = step(loop)
        spin(DRAIN_S * 6)  # small_resnet's tail is about a millisecond
        read = {"after_step_loss_item": loss.item, "after_step_detached_item": lambda: loss.detach().item(),
                "after_step_scalar_item": scalar.item}[kind]
        return timed_us(read)
    for _ in range(n):
        counter.add_(1)
    spin(DRAIN_S)
    return timed_us(scalar.item if kind == "scalar_item" else torch.cuda.synchronize)


def summary(values):
    deciles = statistics.quantiles(values, n=10)
    return {"n": len(values), "median_us": statistics.median(values), "mean_us": statistics.fmean(values),
            "d1_us": deciles[0], "d9_us": deciles[-1]}


def run(kind, contexts, trial, trials, rng):
    samples = {c: [] for c in contexts}
    order = [c for c in contexts for _ in range(trials)]
    rng.shuffle(order)
    for c in order:
        samples[c].append(trial(c))
    return {c: summary(v) for c, v in samples.items()}


def main():
    out, args = sys.argv[1], sys.argv[2:]
    with_launches = "--launches" in args
    if with_launches:
        args.remove("--launches")
    models = args or ["tiny_mlp", "small_resnet"]
    torch.backends.cudnn.benchmark = True
    rng = random.Random(7)
    result = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "models": []}
    for model in models:
        loop = rt.Loop(model, "none", 0.0)
        rt.mean_step_ms(loop, 10)
        scalar = torch.ones((), device="cuda")
        trials = 400 if model == "tiny_mlp" else 60
        item = run("item", ["after_synchronize", "after_host_work", "after_drained_kernel", "after_drained_step",
                            "in_step", "second_item"], lambda c: item_trial(c, loop, scalar), trials, rng)
        steps = run("step", ["after_step", "after_synchronize", "after_item", "after_host_work"],
                    lambda c: step_trial(c, loop), trials, rng)
        entry = {"model": model, "item": item, "step_host": steps}
        tables = [("item", item), ("step host", steps)]
        if with_launches:
            counter = torch.zeros((), device="cuda")
            contexts = [(k, n) for k in ("scalar_item", "synchronize") for n in LAUNCHES] + \
                [(k, 0) for k in ("after_step_loss_item", "after_step_detached_item", "after_step_scalar_item")]
            table = run("launches", contexts, lambda c: launches_trial(c, loop, scalar, counter), trials // 4, rng)
            entry["after_launches"] = [{"read": k, "launches": n, **v} for (k, n), v in table.items()]
            tables.append(("launches", {f"{k}@{n}": v for (k, n), v in table.items()}))
        result["models"].append(entry)
        for name, table in tables:
            for c, s in table.items():
                print(f"{model:13s} {name:9s} {c:21s} median {s['median_us']:9.1f} us  mean {s['mean_us']:9.1f}"
                      f"  d1-d9 {s['d1_us']:.1f}-{s['d9_us']:.1f}  ({s['n']})", flush=True)
        with open(out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
