#!/usr/bin/env python3
"""Record torch.profiler (Kineto) traces of plain Python training loops, for SyncTax's tests.

Each loop trains one of SyncTax's three models on synthetic data, with or without syncs in the
step, and writes what `torch.profiler` writes for a user: `tensorboard_trace_handler` files
(`.pt.trace.json.gz`) or `export_chrome_trace` (`.json`). Beside the traces, `measured.json` holds
each loop's mean step time timed without the profiler, and the paired interleaved measurement of
`item` against `none` for each model (and with host work), so the tax a trace implies can be compared
with the tax the loop pays.

usage: record-traces.py OUT_DIR
"""
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler


# SyncTax's three models as Python modules, shared with the probe's loops.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "probe"))
from loops import ResNet50, SmallResNet, TinyMLP  # noqa: E402


MODELS = {
    "tiny_mlp": (TinyMLP, lambda b: (b, 256), 256, 10),
    "small_resnet": (SmallResNet, lambda b: (b, 3, 32, 32), 128, 10),
    "resnet50": (ResNet50, lambda b: (b, 3, 224, 224), 64, 1000),
}


def host_work(ms):
    """Host work (data loading, augmentation, logging) that the GPU queue can hide. One sleep, not a
    busy loop: a busy loop's thousands of perf_counter calls would fill a with_stack trace."""
    time.sleep(ms / 1000.0)


class Loop:
    def __init__(self, model, syncs, host_ms):
        make, shape, batch, classes = MODELS[model]
        self.net = make().cuda()
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.01, momentum=0.9)
        self.x = torch.randn(shape(batch), device="cuda")
        self.y = torch.randint(0, classes, (batch,), device="cuda")
        self.syncs, self.host_ms, self.step_index = syncs, host_ms, 0

    def step(self):
        self.opt.zero_grad(set_to_none=True)
        logits = self.net(self.x)
        loss = F.cross_entropy(logits, self.y)
        loss.backward()
        self.opt.step()
        if self.host_ms:
            host_work(self.host_ms)
        if self.syncs in ("item", "mixed"):
            loss_value = loss.item()
        if self.syncs == "mixed":
            i = self.step_index
            correct = (logits.argmax(1) == self.y).sum().cpu()
            if i % 3 == 0:
                first = logits[0, :4].tolist()
            if i % 4 == 0:
                zero_labels = torch.nonzero(self.y == 0)
            if i % 5 == 0:
                torch.cuda.synchronize()
        self.step_index += 1


def mean_step_ms(loop, steps):
    """Mean step time after 5 warm-up steps."""
    for _ in range(5):
        loop.step()
    return block_ms(loop, steps)


def block_ms(loop, steps):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        loop.step()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1000.0 / steps


def measure_paired(model, host_ms, rounds=30, seed=1, extra=None, until_ci_pp=None, budget_s=None):
    """`item` against `none` and `none` against itself (A/A), unprofiled: blocks of steps in rounds,
    each round in a fresh seeded random order; the overhead is the geometric mean of the paired
    ratios with a 95% bootstrap interval over rounds (2,000 resamples).

    extra: name -> function(none_loop, steps), run once per round among the blocks, in the same
    shuffled order, so that what it times drifts with the blocks; its returns are kept per round
    under result["extra"][name].

    until_ci_pp, budget_s: after the `rounds` rounds, more rounds of the three loops alone (no
    extra) until the half-width of item's interval is at most until_ci_pp points or budget_s seconds
    have passed since the first round (checked every 10 rounds). A host whose speed moves by a fifth
    within seconds needs a hundred rounds or more for a +-2-point interval on a 10 ms step."""
    rng = random.Random(seed)
    check_rng = random.Random(seed + 1)  # the stopping checks' resamples leave the orders as they were
    loops = {"none": Loop(model, "none", host_ms), "none_aa": Loop(model, "none", host_ms),
             "item": Loop(model, "item", host_ms)}
    steps = max(5, int(300 / (mean_step_ms(loops["none"], 10) + 1e-9)))  # blocks of about 0.3 s
    for loop in loops.values():
        mean_step_ms(loop, 5)
    extra = extra or {}
    blocks = {name: [] for name in loops}
    extras = {name: [] for name in extra}

    def overhead(name, rng):
        logs = [math.log(a / b) for a, b in zip(blocks[name], blocks["none"])]
        mean = lambda xs: sum(xs) / len(xs)
        boot = sorted(mean([rng.choice(logs) for _ in logs]) for _ in range(2000))
        pct = lambda x: (math.exp(x) - 1.0) * 100.0
        return {"pct": pct(mean(logs)), "ci_low": pct(boot[49]), "ci_high": pct(boot[1949])}

    def narrow_enough():
        if until_ci_pp is None:
            return True
        interval = overhead("item", check_rng)
        return (interval["ci_high"] - interval["ci_low"]) / 2 <= until_ci_pp

    t0 = time.perf_counter()
    done, stop_reason = 0, "rounds"
    while True:
        if done >= rounds:
            if until_ci_pp is None:
                break
            if (done - rounds) % 10 == 0:
                if narrow_enough():
                    stop_reason = "interval" if done > rounds else "rounds"
                    break
                if budget_s is not None and time.perf_counter() - t0 >= budget_s:
                    stop_reason = "time_budget"
                    break
        with_extra = done < rounds
        order = list(loops) + (list(extra) if with_extra else [])
        rng.shuffle(order)
        for name in order:
            if name in extra:
                extras[name].append(extra[name](loops["none"], steps))
            else:
                blocks[name].append(block_ms(loops[name], steps))
        done += 1

    result = {"model": model, "host_ms": host_ms, "rounds": done, "steps_per_block": steps,
              "stop_reason": stop_reason, "seconds": time.perf_counter() - t0,
              "none_ms": sorted(blocks["none"])[done // 2], "item_ms": sorted(blocks["item"])[done // 2],
              "item": overhead("item", rng), "aa_control": overhead("none_aa", rng)}
    if extra:
        result["extra"] = extras
    print(f"paired {model:12s} host {host_ms:4.1f} ms: none {result['none_ms']:7.3f} ms, item "
          f"{result['item']['pct']:+5.1f}% [{result['item']['ci_low']:+5.1f}, {result['item']['ci_high']:+5.1f}], "
          f"A/A {result['aa_control']['pct']:+5.1f}% ({steps} steps x {done} rounds, {stop_reason}, "
          f"{result['seconds']:.0f} s)", flush=True)
    return result


def record(out, name, model, syncs, host_ms=0.0, active=5, stack=True, steps_marked=True, cycles=1, gz=True):
    loop = Loop(model, syncs, host_ms)
    measured = mean_step_ms(loop, 40)
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    if steps_marked:
        handler = tensorboard_trace_handler(folder, worker_name=name, use_gzip=gz)
        with profile(activities=activities, with_stack=stack,
                     schedule=schedule(wait=1, warmup=1, active=active, repeat=cycles),
                     on_trace_ready=handler) as prof:
            for _ in range(cycles * (active + 2) + 1):
                loop.step()
                prof.step()
    else:
        with profile(activities=activities, with_stack=stack) as prof:
            for _ in range(active):
                loop.step()
            torch.cuda.synchronize()
        prof.export_chrome_trace(os.path.join(folder, name + ".json"))
    files = sorted(os.listdir(folder))
    sizes = [os.path.getsize(os.path.join(folder, f)) for f in files]
    print(f"{name:32s} {measured:8.3f} ms/step  {len(files)} file(s) {sum(sizes) / 1e6:6.2f} MB", flush=True)
    return {"name": name, "model": model, "syncs": syncs, "host_ms": host_ms, "mean_step_ms": measured,
            "files": files, "bytes": sizes}


def ddp_worker(rank, world, out, port):
    import torch.distributed as dist
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    net = nn.parallel.DistributedDataParallel(TinyMLP().cuda())
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x, y = torch.randn(256, 256, device="cuda"), torch.randint(0, 10, (256,), device="cuda")
    folder = os.path.join(out, "ddp-gloo-2ranks")
    os.makedirs(folder, exist_ok=True)
    handler = tensorboard_trace_handler(folder, worker_name=f"rank{rank}", use_gzip=True)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], with_stack=True,
                 schedule=schedule(wait=1, warmup=1, active=4), on_trace_ready=handler) as prof:
        for i in range(7):
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(net(x), y)
            if rank == 1 and i % 2 == 0:
                host_work(20.0)  # one slow rank: the other waits in the gradient all-reduce
            loss.backward()
            opt.step()
            loss.item()
            prof.step()
    dist.destroy_process_group()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0), flush=True)
    runs = []
    for model, active in (("tiny_mlp", 10), ("small_resnet", 5), ("resnet50", 3)):
        for syncs in ("item", "none"):
            runs.append(record(out, f"{model}-{syncs}", model, syncs, active=active))
    runs.append(record(out, "small_resnet-mixed", "small_resnet", "mixed", active=6))
    for syncs in ("item", "none"):
        runs.append(record(out, f"resnet50-host15-{syncs}", "resnet50", syncs, host_ms=15.0, active=3))
        runs.append(record(out, f"small_resnet-host4-{syncs}", "small_resnet", syncs, host_ms=4.0, active=5))
    runs.append(record(out, "tiny_mlp-item-nostack", "tiny_mlp", "item", active=5, stack=False, steps_marked=False))
    runs.append(record(out, "tiny_mlp-watch", "tiny_mlp", "item", active=3, cycles=3))
    paired = [measure_paired(model, host_ms) for model, host_ms in
              (("tiny_mlp", 0.0), ("small_resnet", 0.0), ("resnet50", 0.0), ("small_resnet", 4.0), ("resnet50", 15.0))]
    with open(os.path.join(out, "measured.json"), "w") as f:
        json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "runs": runs,
                   "paired": paired}, f, indent=1)
    try:
        import torch.multiprocessing as mp
        mp.spawn(ddp_worker, args=(2, out, 29517), nprocs=2, join=True)
        print("ddp-gloo-2ranks", sorted(os.listdir(os.path.join(out, "ddp-gloo-2ranks"))), flush=True)
    except Exception as error:  # a trace set without ranks is still worth keeping
        print("ddp recording failed:", error, flush=True)


if __name__ == "__main__":
    main()
