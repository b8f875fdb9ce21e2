#!/usr/bin/env python3
"""The probe's own cost on a loop: blocks with the probe attached against blocks without, paired
in rounds of random order in one process (attach and detach between blocks, outside the timed
part), with an A/A control. The probe runs as it runs for a user without --ab: every hook, the
CUDA events, the writer; no profiled capture inside a block.

    python3 bench/probe/probe_cost.py [--model tiny_mlp] [--rounds 60] [--block-steps 300] [--gpu-every 1,8]
                                      [--parts]

prints `probe cost: +x.x% [lo, hi] ...` for each --gpu-every asked (one arm each, in the same
rounds; the goal: at most 1% of a 1 ms step). --parts adds arms that leave parts out, to say where
the cost is: `parts_no_gpu` (no CUDA events), `parts_no_writer` (records built, not queued) and
`parts_hooks` (the wrappers' timing only, no step record)."""
import argparse
import json
import os
import sys
import tempfile
import time

import torch

from loops import Loop, default_device
from paired import estimate, run_rounds, text, timed_block

import synctax_probe  # after paired, which finds it in the checkout where it is not installed

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
    p.add_argument("--gpu-every", default="1", help="comma-separated: one probed arm for each (default: 1)")
    p.add_argument("--parts", action="store_true", help="add arms that leave parts of the probe out")
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

    def cpu_timed(block, name):
        c0 = time.thread_time_ns()
        ms = block()
        cpu_us.setdefault(name, []).append((time.thread_time_ns() - c0) / args.block_steps / 1e3)
        return ms

    def plain(name):
        def block():
            for _ in range(UNTIMED):
                loop.step()
            return cpu_timed(lambda: timed_block(loop, args.block_steps), name)
        return block

    def probed(every, part=None, name=None):
        def block():
            synctax_probe.attach(out=out, warmup_steps=0, warmup_max_steps=0, profile_steps=0, quiet=True,
                                 gpu_every=every)
            leave_out(synctax_probe._probe, part)
            try:
                for _ in range(UNTIMED):
                    loop.step()
                return cpu_timed(lambda: timed_block(loop, args.block_steps), name)
            finally:
                end = synctax_probe.detach()
                if end.get("probe_us_per_step") is not None:
                    own_us.setdefault(name, []).append(end["probe_us_per_step"])
                if end["steps_dropped"]:
                    print(f"  the writer dropped {end['steps_dropped']} step records", file=sys.stderr)
        return block

    everies = [int(x) for x in args.gpu_every.split(",")]
    arms = {("probe" if e == 1 else f"probe_every{e}"): e for e in everies}
    parts = ("parts_no_gpu", "parts_no_writer", "parts_hooks") if args.parts else ()
    styles = tuple(arms) + parts + ("none_aa",)

    def progress(r, done):
        if (r + 1) % 10 == 0:
            part = estimate(done, styles, args.seed)
            print(f"  {r + 1} rounds: " + ", ".join(f"{a} {text(part['estimates'][a])}" for a in arms), flush=True)

    configs = {"none": plain("none"), "none_aa": plain("none_aa")}
    configs.update({arm: probed(e, name=arm) for arm, e in arms.items()})
    configs.update({part: probed(everies[-1], part, part) for part in parts})
    rounds, orders = run_rounds(configs, args.rounds, args.seed, progress)
    result = estimate(rounds, styles, args.seed)
    aa = result["estimates"]["none_aa"]
    base = result["baseline_step_ms"]
    device = torch.cuda.get_device_name() if torch.device(args.device).type == "cuda" else "cpu"
    for arm, every in arms.items():
        probe = result["estimates"][arm]
        print(f"probe cost (GPU timed every {every} step{'s' if every > 1 else ''}): {text(probe)} on a "
              f"{base:.3f} ms step ({(probe['step_ms'] - base) * 1000:+.1f} us a step; A/A {text(aa)}; "
              f"{len(rounds)} rounds of {args.block_steps} steps; {args.model}, {device}, torch {torch.__version__})")
    for part in parts:
        est = result["estimates"][part]
        print(f"  {part}: {text(est)} ({(est['step_ms'] - base) * 1000:+.1f} us a step)")
    base_cpu = cpu_us["none"]
    for arm in tuple(arms) + parts:
        diffs = sorted(a - b for a, b in zip(cpu_us[arm], base_cpu))
        own = sorted(own_us.get(arm, []))
        print(f"  {arm}: the loop thread's CPU {diffs[len(diffs) // 2]:+.1f} us a step (median of the rounds' "
              f"paired differences; none: {sorted(base_cpu)[len(base_cpu) // 2]:.1f} us)"
              + (f"; the probe's own time after each step, as it measures it: {own[len(own) // 2]:.1f} us" if own else ""))
    if result["drift"]["flagged"]:
        print(f"  the baseline drifted {result['drift']['pct']:+.1f}% from the first half to the second")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "device": device, "torch": torch.__version__, "orders": orders,
                       "rounds": rounds, "result": result}, f, indent=1)
    with open(os.path.join(out, "end.json")) as f:
        last = json.load(f)
    print(f"  last probed block: {last['steps']} steps recorded, gpu timed: {last['gpu_timed']}")


def leave_out(probe, part):
    """Takes a part out of an attached probe, for --parts."""
    if part == "parts_no_gpu":
        probe.cpu_mode = probe.said_no_cuda = True
    elif part == "parts_no_writer":
        probe.writer.put_step = lambda item: None
    elif part == "parts_hooks":
        def step_end(t0, t1):
            probe.step += 1
            probe.b_start = probe.zero_grad_ns = 0
            probe.phase = 0
            probe.step_start = time.perf_counter_ns()
        probe.step_end = step_end


if __name__ == "__main__":
    main()
