#!/usr/bin/env python3
"""A plain hand-written paired measurement of `loss.item()` after each optimizer step, against the
probe's --ab item on the same loop in the same process: segments in turn (by default hand, probe,
hand), so that the probe's answer can be read against two hand-made ones taken just before and
after it on the same host.

A hand segment: rounds of blocks (none, none_aa, item) in a seeded random order, each block from
an idle GPU to the GPU done, the loop's code from loops.py. A probe segment: the same loop under
synctax_probe.attach(ab="item") for as many rounds, its answer read from its ab.json.

    python3 bench/probe/handpaired.py --model resnet34 --host-work-ms 10 [--rounds 30]
"""
import argparse
import json
import os
import tempfile
import time

import torch

from loops import MODELS, Loop, default_device
from paired import estimate, run_rounds, text, timed_block

import synctax_probe  # after paired, which finds it in the checkout where it is not installed


def hand_segment(loop, args, seed):
    def block(item):
        return lambda: timed_block(loop, args.block_steps, item=item)

    rounds, orders = run_rounds({"none": block(False), "none_aa": block(False), "item": block(True)},
                                args.rounds, seed)
    result = estimate(rounds, ("item", "none_aa"), seed, args.window_rounds)
    return {"rounds": rounds, "orders": orders, "result": result}


def probe_segment(loop, args, seed, out):
    warmup, profile, settle = args.warmup_steps, 5, 10
    synctax_probe.attach(out=out, ab="item", block_steps=args.block_steps, block_ms=0, warmup_steps=warmup,
                         warmup_max_steps=warmup, profile_steps=profile, settle_steps=settle, seed=seed,
                         window_rounds=args.window_rounds)
    try:
        for _ in range(warmup + profile + settle + args.rounds * 4 * args.block_steps):
            loop.step()
    finally:
        end = synctax_probe.detach()
    with open(os.path.join(out, "ab.json")) as f:
        ab = json.load(f)
    return {"folder": out, "end": end, "result": ab}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="resnet34", choices=sorted(MODELS))
    p.add_argument("--device", default=default_device())
    p.add_argument("--batch", type=int)
    p.add_argument("--side", type=int)
    p.add_argument("--host-work-ms", type=float, default=0.0)
    p.add_argument("--rounds", type=int, default=30, help="rounds per segment")
    p.add_argument("--block-steps", type=int, default=20)
    p.add_argument("--warmup-steps", type=int, default=30)
    p.add_argument("--window-rounds", type=int, default=10)
    p.add_argument("--segments", default="hand,probe,hand", help="in turn, comma-separated")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="folder for the probe's run folders and handpaired.json (default: a temp folder)")
    args = p.parse_args()
    segments = args.segments.split(",")
    if any(s not in ("hand", "probe") for s in segments):
        p.error("--segments: expected hand and probe, comma-separated")
    out = args.out or tempfile.mkdtemp(prefix="synctax-handpaired-")
    os.makedirs(out, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    loop = Loop(args.model, args.device, args.batch, args.side, args.host_work_ms)
    for _ in range(args.warmup_steps):
        loop.step()
    device = torch.cuda.get_device_name() if torch.device(args.device).type == "cuda" else "cpu"
    print(f"{args.model}, batch {loop.batch}, host work {args.host_work_ms} ms, {device}, torch {torch.__version__}")
    done = []
    for i, kind in enumerate(segments):
        t0 = time.perf_counter()
        seed = args.seed + i
        if kind == "hand":
            seg = hand_segment(loop, args, seed)
        else:
            seg = probe_segment(loop, args, seed, os.path.join(out, f"probe-{i}"))
        seg.update(kind=kind, seconds=time.perf_counter() - t0)
        done.append(seg)
        res = seg["result"]
        est = res.get("estimates")
        if not est:
            print(f"{i + 1}. {kind}: no estimate ({res.get('reason')})")
            continue
        print(f"{i + 1}. {kind:5s}: item {text(est['item'])}, A/A {text(est['none_aa'])}, "
              f"{res['rounds']} rounds, none {res['baseline_step_ms']:.3f} ms a step, {seg['seconds']:.0f} s"
              + (", drift flagged" if res["drift"]["flagged"] else ""))
        for w in res["windows"]:
            print(f"     rounds {w['first_round']}-{w['first_round'] + w['rounds'] - 1}: "
                  f"item {w['item']['pct']:+.1f}%, none {w['baseline_step_ms']:.3f} ms")
        moved = (res.get("tax_drift") or {}).get("item")
        if moved and moved["flagged"]:
            print(f"     the tax moved within the segment: {text(moved['first_half'])} in its first half, "
                  f"{text(moved['second_half'])} in its second")
    _consistency(done)
    with open(os.path.join(out, "handpaired.json"), "w") as f:
        json.dump({"args": vars(args), "device": device, "torch": torch.__version__, "segments": done}, f, indent=1)
    print(f"written: {os.path.join(out, 'handpaired.json')}")


def _meet(a, b):
    return a["ci_low"] <= b["ci_high"] and b["ci_low"] <= a["ci_high"]


def _consistency(done):
    """Whether the probe's interval meets each hand-made one (overlapping 95% intervals). Where the
    tax itself moved (within a segment, or between the hand segments around the probe's), a
    difference is the loop's, not the probe's: said so, not counted as a miss."""
    est = [(s["kind"], (s["result"].get("estimates") or {}).get("item")) for s in done]
    probes = [e for k, e in est if k == "probe" and e]
    hands = [e for k, e in est if k == "hand" and e]
    moved_within = any(((s["result"].get("tax_drift") or {}).get("item") or {}).get("flagged") for s in done)
    moved_between = any(not _meet(a, b) for i, a in enumerate(hands) for b in hands[i + 1:])
    for pe in probes:
        for he in hands:
            verdict = "consistent" if _meet(pe, he) else "NOT consistent"
            if not _meet(pe, he) and (moved_within or moved_between):
                verdict += " (the tax moved " + ("within a segment" if moved_within else "between the hand segments") \
                    + ": the loop drifted, not a test of the probe)"
            print(f"probe {text(pe)} against hand {text(he)}: {verdict}")
    if probes and hands:
        steady = not (moved_within or moved_between)
        agree = all(_meet(pe, he) for pe in probes for he in hands)
        print("verdict: " + ("consistent" if agree else "NOT consistent") + (", the tax steady" if steady else
              ", the tax moved during the run (see the windows above)"))


if __name__ == "__main__":
    main()
