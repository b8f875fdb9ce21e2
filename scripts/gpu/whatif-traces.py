#!/usr/bin/env python3
"""On a GPU machine: what the what-if of `synctax-run trace` is checked against
(scripts/gpu/validate.sh runs it, then whatif-compare.py over what it wrote). For each model of
scripts/record-traces.py, in one fresh process: first the unprofiled, interleaved paired
measurement of `item` against `none` (host work 0 and a middle-regime host work), the unprofiled
host time of one step from an idle GPU, and a Python .item()'s own cost on an idle GPU; then traces
of the same loops (none and item, host work 0) recorded with torch.profiler. Writes OUT/whatif.json
and the traces under OUT/<model>-<syncs>/; with --recordings N, N recordings of each, the later ones
under OUT/<model>-<syncs>-<k>/, to see how far two recordings of one loop differ. Each model's entry
also holds the host time of its `none` loop's phases (zero_grad, forward, backward, optimizer)
without the profiler, in the steady loop (`phases_us`), and `phases_idle_us`, `phases_steady_us` and
`phases_item_us`: the phases timed from an idle GPU, in the steady loop and in the loop with `item`,
each as blocks interleaved with the paired measurement at host work 0, so that they drift with the
blocks they are compared to (the median over its rounds of each block's median step; `_mean_us`:
the mean over every step). With --no-stack-too, each loop is also recorded once without Python
stacks (OUT/<model>-<syncs>-nostack/).

    python3 scripts/gpu/whatif-traces.py OUT [--recordings N] [--no-stack-too] [MODEL...]
"""
import importlib.util
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The loops and their recording are scripts/record-traces.py's (its name has a dash: loaded by path).
_spec = importlib.util.spec_from_file_location("record_traces", os.path.join(SCRIPTS, "record-traces.py"))
rt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rt)

PHASES = ("zero_grad", "forward", "backward", "optimizer", "item")

# Host work per step at which each loop's host time comes close to its GPU time (unprofiled).
MIDDLE_HOST_MS = {"tiny_mlp": 1.0, "small_resnet": 4.0, "resnet50": 15.0}
# The paired measurement at host work 0 (the one each trace's what-if is held to within 3 points):
# after its 30 rounds with the phases, more rounds until item's interval is within +-1.5 points or
# 110 s have passed. At 30 rounds small_resnet's interval was 7 to 10 points wide on the H200.
HOST0_CI_PP, HOST0_BUDGET_S = 1.5, 110


def timed_step(loop, sync_before, item):
    """One step of loop, timed phase by phase on the host (us)."""
    if sync_before:
        torch.cuda.synchronize()
    t = [time.perf_counter_ns()]
    loop.opt.zero_grad(set_to_none=True)
    t.append(time.perf_counter_ns())
    loss = F.cross_entropy(loop.net(loop.x), loop.y)
    t.append(time.perf_counter_ns())
    loss.backward()
    t.append(time.perf_counter_ns())
    loop.opt.step()
    t.append(time.perf_counter_ns())
    if item:
        loss.item()
    t.append(time.perf_counter_ns())
    return [(b - a) * 1e-3 for a, b in zip(t, t[1:])]


def phase_times(loop, steps, sync_before, item):
    """The loop's phases over `steps` steps: each phase's median and mean, and every step's."""
    rows = [timed_step(loop, sync_before, item) for _ in range(steps)]
    torch.cuda.synchronize()
    median = {p: statistics.median(r[i] for r in rows) for i, p in enumerate(PHASES)}
    median["step"] = statistics.median(sum(r) for r in rows)
    mean = {p: statistics.fmean(r[i] for r in rows) for i, p in enumerate(PHASES)}
    mean["step"] = statistics.fmean(sum(r) for r in rows)
    return {"steps": steps, "median_us": median, "mean_us": mean, "per_step_us": rows}


def dispatch_from_idle_ms(loop, steps=21):
    times = []
    for _ in range(steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loop.step()
        times.append((time.perf_counter() - t0) * 1000.0)
    torch.cuda.synchronize()
    return statistics.median(times)


def item_cost_us(calls=201):
    x = torch.ones((), device="cuda")
    times = []
    for _ in range(calls):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        x.item()
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def phase_block(sync_before, item):
    """A block of measure_paired's `extra`: the loop's phases timed over the block's steps."""
    return lambda loop, steps: phase_times(loop, steps, sync_before, item)


def main():
    out, args, recordings = sys.argv[1], sys.argv[2:], 1
    if "--recordings" in args:
        at = args.index("--recordings")
        recordings = int(args[at + 1])
        del args[at:at + 2]
    no_stack_too = "--no-stack-too" in args
    if no_stack_too:
        args.remove("--no-stack-too")
    models = args or ["tiny_mlp", "small_resnet", "resnet50"]
    os.makedirs(out, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    results = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "models": []}
    for model in models:
        entry = {"model": model, "middle_host_ms": MIDDLE_HOST_MS[model]}
        phase_blocks = {"phases_idle": phase_block(True, False), "phases_steady": phase_block(False, False),
                        "phases_item": phase_block(False, True)}
        entry["paired_host0"] = rt.measure_paired(model, 0.0, rounds=30, extra=phase_blocks,
                                                  until_ci_pp=HOST0_CI_PP, budget_s=HOST0_BUDGET_S)
        for name, per_round in entry["paired_host0"]["extra"].items():
            for r in per_round:
                del r["per_step_us"]
            phases = per_round[0]["median_us"]
            entry[f"{name}_us"] = {p: statistics.median(r["median_us"][p] for r in per_round) for p in phases}
            entry[f"{name}_mean_us"] = {p: statistics.fmean(r["mean_us"][p] for r in per_round) for p in phases}
            for how in ("", "_mean"):
                print(f"{model} {name}{how}: " + ", ".join(f"{p} {v / 1000:.3f}" for p, v in
                                                         entry[f"{name}{how}_us"].items()), flush=True)
        entry["paired_middle"] = rt.measure_paired(model, MIDDLE_HOST_MS[model], rounds=24)
        loop = rt.Loop(model, "none", 0.0)
        rt.mean_step_ms(loop, 10)
        entry["dispatch_from_idle_ms"] = dispatch_from_idle_ms(loop)
        entry["item_cost_us"] = item_cost_us()
        steady = phase_times(loop, 40 if model != "tiny_mlp" else 200, False, False)
        entry["phases_us"] = steady["median_us"]
        entry["traces"] = [rt.record(out, f"{model}-{syncs}" + (f"-{k + 1}" if k else ""), model, syncs, active=5)
                           for k in range(recordings) for syncs in ("none", "item")]
        if no_stack_too:
            entry["traces"] += [rt.record(out, f"{model}-{syncs}-nostack", model, syncs, active=5, stack=False)
                                for syncs in ("none", "item")]
        print(f"{model}: dispatch from idle {entry['dispatch_from_idle_ms']:.3f} ms, python item {entry['item_cost_us']:.1f} us",
              flush=True)
        results["models"].append(entry)
        with open(os.path.join(out, "whatif.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
