#!/usr/bin/env python3
"""The probe's own cost on a loop: blocks with the probe attached against blocks without, paired
in rounds of random order in one process (attach and detach between blocks, outside the timed
part), with an A/A control. The probe runs as it runs for a user without --ab: every hook, the
CUDA events, the writer, one block in four timed step by step and the others only counted; no
profiled capture inside a block.

    python3 bench/probe/probe_cost.py [--model tiny_mlp] [--rounds 60] [--block-steps 300]
                                      [--gpu-span-ms 100,5] [--parts] [--timed] [--against PACKAGE]

prints `probe cost: +x.x% [lo, hi] ...` for each --gpu-span-ms asked (one arm each, in the same
rounds; the goal: at most 1% of a 1 ms step), then the loop thread's CPU time a step against the
detached loop, with a 95% interval (less noisy than the wall time on a VM). --parts adds arms that
leave parts out, to say where the cost is: `parts_no_gpu` (no CUDA events), `parts_no_writer`
(steps recorded, not written), `parts_hooks` (the wrappers' timing only, no step recorded),
`parts_no_tensor` (torch.Tensor's methods left as they are), `parts_block1000` (blocks of at least
1,000 steps: the schedule's work at a block's end rarer than every 100 ms) and `parts_wrap_only`
(no probe: two bare wrappers, on torch.autograd.backward and the optimizer's step, that only pass
the call on); parts that change a step's end act on the timed steps.
--timed adds an arm `probe_timed`: every block a calibration block (--calib-every 1), every step
timed, the price of the timed blocks alone. --against PACKAGE adds an arm `against`: another copy
of the probe importable under that name (an earlier version, say), attached with its defaults, for
a before/after ratio in one run."""
import argparse
import gc
import importlib
import json
import random
import os
import sys
import tempfile
import time
from time import perf_counter_ns as ns

import torch

from loops import Loop, default_device
from paired import estimate, run_rounds, text, timed_block

import synctax_probe  # after paired, which finds it in the checkout where it is not installed
from synctax_probe import stats

UNTIMED = 5  # steps after attaching (or not) before the timed block: the probe's events are made


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="tiny_mlp")
    p.add_argument("--device", default=default_device())
    p.add_argument("--batch", type=int)
    p.add_argument("--side", type=int)
    p.add_argument("--host-work-ms", type=float, default=0.0)
    p.add_argument("--rounds", type=int, default=60)
    p.add_argument("--block-steps", type=int, default=300)
    p.add_argument("--warmup-steps", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gpu-span-ms", default="100", help="comma-separated: one probed arm for each (default: 100)")
    p.add_argument("--parts", action="store_true", help="add arms that leave parts of the probe out")
    p.add_argument("--against", metavar="PACKAGE", help="another copy of the probe, as an arm of its own")
    p.add_argument("--timed", action="store_true", help="add an arm with every step timed (--calib-every 1)")
    p.add_argument("--json", help="write the rounds and the estimate here")
    args = p.parse_args()
    torch.backends.cudnn.benchmark = True
    loop = Loop(args.model, args.device, args.batch, args.side, args.host_work_ms)
    for _ in range(args.warmup_steps):
        loop.step()
    out = tempfile.mkdtemp(prefix="synctax-probe-cost-")

    # The loop thread's CPU time per step of each block, by arm: the probe's own work on that
    # thread, with less of the wall time's noise (the GPU, the other threads, the host's neighbours).
    cpu_us = {}
    own_us = {}  # the probe's own time after each step, as it measures it (end.json), by arm
    writer_us = {}  # the writer thread's CPU time a step (end.json), by arm
    gc_us = {}  # the time in Python's garbage collector a step, by arm
    gc_runs = {}  # collections of each generation in the arm's timed blocks
    in_gc = {"t0": 0, "ns": 0, "runs": [0, 0, 0]}

    def on_gc(phase, info):
        if phase == "start":
            in_gc["t0"] = time.perf_counter_ns()
        else:
            in_gc["ns"] += time.perf_counter_ns() - in_gc["t0"]
            in_gc["runs"][info["generation"]] += 1
    gc.callbacks.append(on_gc)

    def cpu_timed(block, name):
        g0, runs0 = in_gc["ns"], list(in_gc["runs"])
        c0 = time.thread_time_ns()
        ms = block()
        cpu_us.setdefault(name, []).append((time.thread_time_ns() - c0) / args.block_steps / 1e3)
        gc_us.setdefault(name, []).append((in_gc["ns"] - g0) / args.block_steps / 1e3)
        runs = gc_runs.setdefault(name, [0, 0, 0])
        for g in range(3):
            runs[g] += in_gc["runs"][g] - runs0[g]
        return ms

    def plain(name):
        def block():
            for _ in range(UNTIMED):
                loop.step()
            return cpu_timed(lambda: timed_block(loop, args.block_steps), name)
        return block

    def probed(span, part=None, name=None, package=synctax_probe):
        def block():
            options = {} if span is None else {"gpu_span_ms": span}
            if part == "parts_block1000":
                options["block_steps"] = 1000
            if part == "probe_timed":
                options["calib_every"] = 1
            package.attach(out=out, warmup_steps=0, warmup_max_steps=0, profile_steps=0, quiet=True, **options)
            leave_out(package._probe, part)
            try:
                for _ in range(UNTIMED):
                    loop.step()
                return cpu_timed(lambda: timed_block(loop, args.block_steps), name)
            finally:
                end = package.detach()
                if end.get("probe_us_per_step") is not None:
                    own_us.setdefault(name, []).append(end["probe_us_per_step"])
                if end.get("writer_us_per_step") is not None:
                    writer_us.setdefault(name, []).append(end["writer_us_per_step"])
                if end["steps_dropped"]:
                    print(f"  the writer dropped {end['steps_dropped']} step records", file=sys.stderr)
        return block

    spans = [float(x) for x in args.gpu_span_ms.split(",")]
    arms = {("probe" if i == 0 else f"probe_span{x:g}"): x for i, x in enumerate(spans)}
    parts = ("parts_no_gpu", "parts_no_writer", "parts_hooks", "parts_no_tensor", "parts_block1000",
             "parts_wrap_only") if args.parts else ()
    against = ("against",) if args.against else ()
    against += ("probe_timed",) if args.timed else ()
    styles = tuple(arms) + against + parts + ("none_aa",)

    def progress(r, done):
        if (r + 1) % 10 == 0:
            part = estimate(done, styles, args.seed)
            print(f"  {r + 1} rounds: " + ", ".join(f"{a} {text(part['estimates'][a])}" for a in arms), flush=True)

    configs = {"none": plain("none"), "none_aa": plain("none_aa")}
    configs.update({arm: probed(x, name=arm) for arm, x in arms.items()})
    configs.update({part: probed(spans[0], part, part) for part in parts if part != "parts_wrap_only"})
    if "parts_wrap_only" in parts:
        configs["parts_wrap_only"] = wrapped_only(loop, lambda: cpu_timed(lambda: timed_block(loop, args.block_steps),
                                                                         "parts_wrap_only"))
    if args.timed:
        configs["probe_timed"] = probed(spans[0], "probe_timed", "probe_timed")
    if args.against:
        configs["against"] = probed(None, name="against", package=importlib.import_module(args.against))
    rounds, orders = run_rounds(configs, args.rounds, args.seed, progress)
    result = estimate(rounds, styles, args.seed)
    aa = result["estimates"]["none_aa"]
    base = result["baseline_step_ms"]
    device = torch.cuda.get_device_name() if torch.device(args.device).type == "cuda" else "cpu"
    for arm, span in arms.items():
        probe = result["estimates"][arm]
        print(f"probe cost (GPU spans of {span:g} ms): {text(probe)} on a "
              f"{base:.3f} ms step ({(probe['step_ms'] - base) * 1000:+.1f} us a step; A/A {text(aa)}; "
              f"{len(rounds)} rounds of {args.block_steps} steps; {args.model}, {device}, torch {torch.__version__})")
    for part in against + parts:
        est = result["estimates"][part]
        print(f"  {part}: {text(est)} ({(est['step_ms'] - base) * 1000:+.1f} us a step)")
    base_cpu = cpu_us["none"]

    def mid(values):
        return stats.median(values) if values else None

    for arm in tuple(arms) + against + parts:
        own, writer = mid(own_us.get(arm, [])), mid(writer_us.get(arm, []))
        diffs = [a - b for a, b in zip(cpu_us[arm], base_cpu)]
        low, high = median_interval(diffs, args.seed)
        print(f"  {arm}: the loop thread's CPU {mid(diffs):+.1f} us a step [{low:+.1f}, {high:+.1f}] "
              f"(median of the rounds' paired differences; none: {mid(base_cpu):.1f} us)"
              + (f"; the probe's own time after each step, as it measures it: {own:.1f} us" if own is not None else "")
              + (f"; its writer thread's CPU: {writer:.1f} us a step" if writer is not None else ""))
    for arm in ("none",) + tuple(arms) + against + parts:
        runs = gc_runs[arm]
        print(f"  {arm}: garbage collection {sum(gc_us[arm]) / len(gc_us[arm]):.2f} us a step "
              f"(collections by generation in its timed blocks: {runs[0]}, {runs[1]}, {runs[2]})")
    if result["drift"]["flagged"]:
        print(f"  the baseline drifted {result['drift']['pct']:+.1f}% from the first half to the second")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "device": device, "torch": torch.__version__, "orders": orders,
                       "rounds": rounds, "result": result, "cpu_us": cpu_us, "gc_us": gc_us}, f, indent=1)
    with open(os.path.join(out, "end.json")) as f:
        last = json.load(f)
    print(f"  last probed block: {last['steps']} steps recorded, gpu timed: {last['gpu_timed']}")


def wrapped_only(loop, timed):
    """A block with two bare wrappers in the probe's places and nothing else."""
    import functools

    def block():
        cls = type(loop.opt)
        orig_backward, orig_step = torch.autograd.backward, cls.__dict__["step"]

        @functools.wraps(orig_backward)
        def backward(*args, **kwargs):
            return orig_backward(*args, **kwargs)

        @functools.wraps(orig_step)
        def step(opt, *args, **kwargs):
            return orig_step(opt, *args, **kwargs)
        torch.autograd.backward, cls.step = backward, step
        try:
            for _ in range(UNTIMED):
                loop.step()
            return timed()
        finally:
            torch.autograd.backward, cls.step = orig_backward, orig_step
    return block


def median_interval(values, seed, resamples=2000):
    """A bootstrap 95% interval of the median."""
    rng = random.Random(seed)
    n = len(values)
    meds = sorted(sorted(rng.choice(values) for _ in range(n))[n // 2] for _ in range(resamples))
    return meds[int(0.025 * resamples)], meds[int(0.975 * resamples) - 1]


def leave_out(probe, part):
    """Takes a part out of an attached probe, for --parts."""
    if part == "parts_no_gpu":
        probe.cpu_mode = probe.said_no_cuda = True
    elif part == "parts_no_writer":
        probe.writer.put_segment = lambda seg: None
    elif part == "parts_no_tensor":
        probe.patches.restore(lambda owner, name: owner is torch.Tensor)
    elif part == "parts_hooks":
        def step_end(t0, t1):
            probe.step += 1
            probe.b_start = 0
            probe.step_start = ns()
        probe.step_end = step_end


if __name__ == "__main__":
    main()
