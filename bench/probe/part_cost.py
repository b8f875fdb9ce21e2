#!/usr/bin/env python3
"""Where the probe's cost in a step is, part by part: the probe stays attached (its writer, its
CUDA events), and each step of one run is, in a seeded random order within each group of four,
one of `none` (neither of its wrappers: torch.autograd.backward the original, the optimizer's step
reached through the optimizer's own attribute, past the probe's), `backward` (the backward()
wrapper only), `step` (the optimizer-step wrapper and the step's end only) and `probe` (both).
Neighbouring steps share the host's state, so the medians of each kind compare far more finely
than blocks do: on the H200 VM, blocks of a 1 ms step leave intervals of a point or two; these,
tenths of a microsecond. With --floor, two more kinds set as the optimizer's own attribute, as
`none` is, to tell the probe's work from a wrapper's bare price in the loop: `bare` (a pass-through
around the step) and `stamps` (one that reads the clock three times and packs a step's record, as
the probe's fast path does, and nothing else).

    python3 bench/probe/part_cost.py [--model tiny_mlp] [--steps 60000] [--chunks 20] [--package NAME] [--floor]

prints, for each kind, the medians of its backward(), its optimizer step and its whole step, each
against `none`, with a bootstrap 95% interval over chunks of the run. Swapping costs nothing
measurable: torch.autograd.backward is a module's attribute, and the optimizer's own `step`
attribute shadows its class's without changing the class. The probe's records see only the steps
its step wrapper ran in (a `none` or `backward` step joins the next in them); nothing here reads
them."""
import argparse
import importlib
import inspect
import random
import tempfile
from time import perf_counter_ns as ns

import torch
import torch.nn.functional as F

from loops import MODELS, Loop, default_device
from probe_cost import median_interval

import synctax_probe  # after probe_cost, whose paired finds it in the checkout where it is not installed
from synctax_probe.blocks import STEP
from synctax_probe.stats import median

KINDS = ("none", "backward", "step", "probe")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="tiny_mlp", choices=sorted(MODELS))
    p.add_argument("--device", default=default_device())
    p.add_argument("--steps", type=int, default=60000)
    p.add_argument("--chunks", type=int, default=20, help="parts of the run the intervals resample")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--package", default="synctax_probe",
                   help="the probe to attach: another copy importable under that name (an earlier one, for before/after)")
    p.add_argument("--floor", action="store_true", help="add the kinds bare and stamps (see above)")
    args = p.parse_args()
    probe = importlib.import_module(args.package)
    kinds = KINDS + (("bare", "stamps") if args.floor else ())
    loop = Loop(args.model, args.device)
    net, opt, x, y = loop.net, loop.opt, loop.x, loop.y
    for _ in range(300):
        loop.step()
    plain_backward = torch.autograd.backward
    owner = next(k for k in type(opt).__mro__ if "step" in k.__dict__)
    plain_step = owner.__dict__["step"].__get__(opt)  # the step as it is before the probe wraps it
    # Every block timed step by step (the wrappers' timed path, priced here); an earlier copy of the
    # probe, from before counted blocks, times every step anyway.
    every = {"calib_every": 1} if "calib_every" in inspect.signature(probe.attach).parameters else {}
    probe.attach(out=tempfile.mkdtemp(prefix="synctax-part-cost-"), warmup_steps=0, warmup_max_steps=0,
                 profile_steps=0, quiet=True, **every)
    probe_backward = torch.autograd.backward
    mine = opt.__dict__
    record, pack, start = bytearray(), STEP.pack, [0]

    def bare(*a, **k):
        return plain_step(*a, **k)

    def stamps(*a, **k):
        t0 = ns()
        result = plain_step(*a, **k)
        t1 = ns()
        record.extend(pack(start[0], 0, t0, t1, t1))
        start[0] = ns()
        return result
    own = {"none": plain_step, "backward": plain_step, "bare": bare, "stamps": stamps}
    rng = random.Random(args.seed)
    groups = max(1, args.steps // len(kinds))
    chunk = max(1, groups // args.chunks)
    # kind -> chunk -> (backward ns, optimizer step ns, whole step ns) of each of its steps
    times = {k: [] for k in kinds}
    try:
        for g in range(groups):
            if g % chunk == 0:
                record.clear()
                for k in kinds:
                    times[k].append(([], [], []))
            for kind in rng.sample(kinds, len(kinds)):
                torch.autograd.backward = probe_backward if kind in ("backward", "probe") else plain_backward
                if kind in own:
                    mine["step"] = own[kind]
                else:
                    mine.pop("step", None)
                t0 = ns()
                opt.zero_grad(set_to_none=True)
                loss = F.cross_entropy(net(x), y)
                t1 = ns()
                loss.backward()
                t2 = ns()
                opt.step()
                t3 = ns()
                b, o, s = times[kind][-1]
                b.append(t2 - t1)
                o.append(t3 - t2)
                s.append(t3 - t0)
    finally:
        mine.pop("step", None)
        torch.autograd.backward = probe_backward
        probe.detach()
    device = torch.cuda.get_device_name() if torch.device(args.device).type == "cuda" else "cpu"
    print(f"{args.package}, {args.model}, {device}, torch {torch.__version__}: {groups * len(kinds)} steps, "
          f"medians in microseconds against `none` (95% interval over {len(times['none'])} chunks)")
    for kind in kinds:
        cells = []
        for i, what in enumerate(("backward()", "opt.step()", "step")):
            whole = median(v for c in times[kind] for v in c[i]) / 1e3
            diffs = [(median(c[i]) - median(n[i])) / 1e3
                     for c, n in zip(times[kind], times["none"])]
            if kind == "none":
                cells.append(f"{what} {whole:8.2f}")
            else:
                low, high = median_interval(diffs, args.seed)
                cells.append(f"{what} {whole:8.2f} ({median(diffs):+.2f} [{low:+.2f}, {high:+.2f}])")
        print(f"  {kind:8s} " + "  ".join(cells))


if __name__ == "__main__":
    main()
