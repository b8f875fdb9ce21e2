#!/usr/bin/env python3
"""Where the probe's cost per step goes, call by call, on this machine: one hooked call on its
fast path and on its recording path, the CUDA event calls the GPU timer makes, the probe's own
parts, and which of its wrappers a tiny-MLP step calls. Calls in a tight loop, not in a training
step (where they run slower, from cold caches): for the cost of a whole step, part by part and
paired, bench/probe/probe_cost.py --parts. A benchmark, not a test.

    python3 bench/probe/hook_cost.py [--model tiny_mlp]
"""
import argparse
import tempfile
import time

import torch

from loops import Loop, default_device, synchronize
import paired  # noqa: F401  (finds the probe in the checkout)

import synctax_probe
from synctax_probe import probe as probe_module


def per_call_ns(fn, n=20000):
    fn()
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return (time.perf_counter_ns() - t0) / n


def calls(device, out):
    cuda = torch.device(device).type == "cuda"
    x = torch.randn(64, device=device)
    scalar = torch.randn((), device=device)
    flag = torch.ones(())
    rows = {
        "to(dtype), a device tensor (fast path)": lambda: x.to(torch.float32),
        "bool(), a CPU tensor (fast path)": lambda: bool(flag),
        "item(), a device scalar (recorded)": lambda: scalar.item(),
    }
    plain = {name: per_call_ns(fn, 5000 if "item" in name else 20000) for name, fn in rows.items()}
    synctax_probe.attach(out=out, warmup_steps=0, warmup_max_steps=0, profile_steps=0, quiet=True)
    try:
        hooked = {name: per_call_ns(fn, 5000 if "item" in name else 20000) for name, fn in rows.items()}
    finally:
        synctax_probe.detach()
    for name in rows:
        print(f"  {name:42s} {plain[name]:8.0f} ns plain, {hooked[name]:8.0f} ns hooked "
              f"({hooked[name] - plain[name]:+.0f})")
    if cuda:
        events = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        events[0].record()
        events[1].record()
        torch.cuda.synchronize()
        for name, fn in (("torch.cuda.current_stream()", torch.cuda.current_stream),
                         ("Event.record()", events[1].record),
                         ("Event.query() (done)", events[0].query),
                         ("Event.elapsed_time()", lambda: events[0].elapsed_time(events[0])),
                         ("torch.cuda.is_initialized()", torch.cuda.is_initialized)):
            print(f"  {name:42s} {per_call_ns(fn, 5000):8.0f} ns")
        torch.cuda.synchronize()


def parts(device, out):
    """The step's bookkeeping, call by call, outside a loop; the writer's side is
    blocks.step_lines, per step of a batch of 256."""
    synctax_probe.attach(out=out, warmup_steps=0, warmup_max_steps=0, profile_steps=0, quiet=True)
    p = synctax_probe._probe
    from synctax_probe.blocks import STEP, Segment, step_lines
    seg = Segment("block", 0, {"block": 617, "round": None, "style": "calib", "t_ms": 0.0})
    for i in range(256):
        seg.rec.extend(STEP.pack(i * 1000, i * 1000 + 300, i * 1000 + 700, i * 1000 + 900, i * 1000 + 900))
    record = (12345678901, 12345679901, 12345680901, 12345681901, 12345681901)
    scratch = bytearray()
    try:
        rows = [("time.perf_counter_ns()", time.perf_counter_ns), ("time.monotonic_ns()", time.monotonic_ns),
                ("threading.get_ident()", __import__("threading").get_ident),
                ("Probe.step_end (most steps)", lambda: p.step_end(1, 2)),
                ("Schedule.step_done", lambda: p.sched.step_done(1)),
                ("a step's five numbers packed on", lambda: scratch.extend(STEP.pack(*record)) if len(scratch) < 4000000 else None),
                ("blocks.step_lines (writer, per step)", lambda: step_lines(seg, 0, 256, 0, [1.25] * 256))]
        if torch.device(device).type == "cuda":
            from synctax_probe.gputimer import GpuTimer
            timer = GpuTimer(torch, 0)
            counter = iter(range(1, 10 ** 9))
            rows.append(("GpuTimer.mark (one a span)", lambda: timer.mark(next(counter))))
        for name, fn in rows:
            ns = per_call_ns(fn, 20000)
            print(f"  {name:42s} {ns / 256 if 'step_lines' in name else ns:8.0f} ns")
    finally:
        synctax_probe.detach()


def counts(loop, out, n=20):
    """How often each of the probe's wrappers runs in one step of the loop."""
    import collections
    import sys
    hooks_file = probe_module.hooks.__file__
    seen = collections.Counter()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == hooks_file:
            seen[f"{frame.f_code.co_name}:{frame.f_code.co_firstlineno}"] += 1

    synctax_probe.attach(out=out, warmup_steps=0, warmup_max_steps=0, profile_steps=0, quiet=True)
    try:
        loop.step()
        sys.setprofile(profile)
        for _ in range(n):
            loop.step()
        sys.setprofile(None)
    finally:
        synctax_probe.detach()
    for name, count in seen.most_common():
        print(f"  {name:42s} {count / n:8.1f} a step")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="tiny_mlp")
    p.add_argument("--device", default=default_device())
    args = p.parse_args()
    out = tempfile.mkdtemp(prefix="synctax-hook-cost-")
    print(f"torch {torch.__version__}, {args.device}")
    print("one call:")
    calls(args.device, out)
    print("parts:")
    parts(args.device, out)
    loop = Loop(args.model, args.device)
    for _ in range(100):
        loop.step()
    print(f"the probe's wrappers in a {args.model} step:")
    counts(loop, out)
    print("the cost of a whole step, part by part, paired: bench/probe/probe_cost.py --parts")


if __name__ == "__main__":
    main()
