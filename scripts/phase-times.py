#!/usr/bin/env python3
"""On the GPU machine: where a Python loop's host time goes without the profiler, phase by phase,
and the same loops' traces right after, for calibrating what `synctax-run trace` takes out of a
trace's host time. For each model of record-traces.py, in one process:

  - `none`, steady state: per step, the host time of zero_grad, forward (with the loss), backward
    and the optimizer step, no sync (the GPU keeps a queue);
  - `none` from an idle GPU: the same, each step after a torch.cuda.synchronize();
  - `item`: the same phases, then the wait and copy of loss.item();
  - traces of `none` and `item` (host work 0), recorded as record-traces.py records them.

Writes OUT/phases.json and the traces under OUT/<model>-<syncs>/.

    python3 scripts/phase-times.py OUT [MODEL...]
"""
import importlib.util
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("record_traces", os.path.join(HERE, "record-traces.py"))
rt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rt)

PHASES = ("zero_grad", "forward", "backward", "optimizer", "item")


def timed_step(loop, sync_before, item):
    """One step of loop, timed phase by phase on the host (µs)."""
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


def phases(loop, steps, sync_before, item):
    rows = [timed_step(loop, sync_before, item) for _ in range(steps)]
    torch.cuda.synchronize()
    median = {p: statistics.median(r[i] for r in rows) for i, p in enumerate(PHASES)}
    median["step"] = statistics.median(sum(r) for r in rows)
    mean = {p: statistics.fmean(r[i] for r in rows) for i, p in enumerate(PHASES)}
    mean["step"] = statistics.fmean(sum(r) for r in rows)
    return {"steps": steps, "median_us": median, "mean_us": mean, "per_step_us": rows}


def main():
    out = sys.argv[1]
    models = sys.argv[2:] or ["tiny_mlp", "small_resnet", "resnet50"]
    os.makedirs(out, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    results = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "models": []}
    for model in models:
        loop = rt.Loop(model, "none", 0.0)
        steps = 40 if model != "tiny_mlp" else 200
        rt.mean_step_ms(loop, 10)
        entry = {"model": model}
        for rep in range(2):  # the three ways twice, interleaved, to see the drift between them
            entry.setdefault("steady", []).append(phases(loop, steps, False, False))
            entry.setdefault("from_idle", []).append(phases(loop, steps, True, False))
            entry.setdefault("item", []).append(phases(loop, steps, False, True))
        entry["block_ms"] = {"none": rt.block_ms(loop, steps)}
        entry["traces"] = [rt.record(out, f"{model}-{syncs}", model, syncs, active=5) for syncs in ("none", "item")]
        med = lambda way: {p: round(statistics.median(r["median_us"][p] for r in entry[way]), 1)
                           for p in PHASES + ("step",)}
        print(model, "steady", med("steady"), flush=True)
        print(model, "from_idle", med("from_idle"), flush=True)
        print(model, "item", med("item"), flush=True)
        results["models"].append(entry)
        with open(os.path.join(out, "phases.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
