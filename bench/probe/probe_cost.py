#!/usr/bin/env python3
"""The probe's own cost on a loop: blocks with the probe attached against blocks without, paired
in rounds of random order in one process (attach and detach between blocks, outside the timed
part), with an A/A control. The probe runs as it runs for a user without --ab: every hook, the
CUDA events, the writer; no profiled capture inside a block.

    python3 bench/probe/probe_cost.py [--model tiny_mlp] [--rounds 60] [--block-steps 300]

prints `probe cost: +x.x% [lo, hi] ...` (the issue's budget: <= 1% of a 1 ms step)."""
import argparse
import json
import os
import sys
import tempfile

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
    p.add_argument("--json", help="write the rounds and the estimate here")
    args = p.parse_args()
    torch.backends.cudnn.benchmark = True
    loop = Loop(args.model, args.device, args.batch, args.side, args.host_work_ms)
    for _ in range(args.warmup_steps):
        loop.step()
    out = tempfile.mkdtemp(prefix="synctax-probe-cost-")

    def plain():
        for _ in range(UNTIMED):
            loop.step()
        return timed_block(loop, args.block_steps)

    def probed():
        synctax_probe.attach(out=out, warmup_steps=0, warmup_max_steps=0, profile_steps=0, quiet=True)
        try:
            for _ in range(UNTIMED):
                loop.step()
            return timed_block(loop, args.block_steps)
        finally:
            end = synctax_probe.detach()
            if end["steps_dropped"]:
                print(f"  the writer dropped {end['steps_dropped']} step records", file=sys.stderr)

    def progress(r, done):
        if (r + 1) % 10 == 0:
            part = estimate(done, ("probe", "none_aa"), args.seed)
            print(f"  {r + 1} rounds: probe {text(part['estimates']['probe'])}", flush=True)

    rounds, orders = run_rounds({"none": plain, "none_aa": plain, "probe": probed}, args.rounds, args.seed,
                                progress)
    result = estimate(rounds, ("probe", "none_aa"), args.seed)
    probe, aa = result["estimates"]["probe"], result["estimates"]["none_aa"]
    base = result["baseline_step_ms"]
    device = torch.cuda.get_device_name() if torch.device(args.device).type == "cuda" else "cpu"
    print(f"probe cost: {text(probe)} on a {base:.3f} ms step ({(probe['step_ms'] - base) * 1000:+.1f} us a step; "
          f"A/A {text(aa)}; {len(rounds)} rounds of {args.block_steps} steps; {args.model}, {device}, "
          f"torch {torch.__version__})")
    if result["drift"]["flagged"]:
        print(f"  the baseline drifted {result['drift']['pct']:+.1f}% from the first half to the second")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "device": device, "torch": torch.__version__, "orders": orders,
                       "rounds": rounds, "result": result}, f, indent=1)
    with open(os.path.join(out, "end.json")) as f:
        last = json.load(f)
    print(f"  last probed block: {last['steps']} steps recorded, gpu timed: {last['gpu_timed']}")


if __name__ == "__main__":
    main()
