#!/usr/bin/env python3
"""The probe's claim, measured on a GPU machine: for each Python loop of bench/probe (SyncTax's three
models and two of torchvision's) at host work 0 and at a middle-regime host work, one run under
`python3 -m synctax_probe --ab item`; its run folder holds the A/B it measured and the capture and
phases the what-if is calibrated from. With --compare RUNNER, the what-if of each folder
(`RUNNER trace DIR --out DIR/whatif`) against the A/B of the same run: one table, the goal being
within 3 points or inside the measured 95% interval in at least 9 cells of 10.

    scripts/gpu/probe-check.py OUT [--scale X] [--models a,b]        # on the GPU machine
    scripts/gpu/probe-check.py OUT --compare build/bin/synctax-run    # anywhere, over OUT's folders

The middle-regime host work is what brings the loop's host to its GPU: the GPU's time per step in the
run at host work 0 less the host's own time per step there (middle_host_ms).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = ["tiny_mlp", "small_resnet", "resnet50", "resnet34", "mobilenet_v2"]
# About how long each loop trains (s): the slower a step, the longer for as many rounds; and its step
# at host work 0 on the H200 (ms), for sizing the first run.
ESTIMATE_MS = {"tiny_mlp": 1.8, "small_resnet": 10, "resnet50": 33, "resnet34": 22, "mobilenet_v2": 24}
SECONDS = {"tiny_mlp": 20, "small_resnet": 30, "resnet50": 45, "resnet34": 35, "mobilenet_v2": 35}


def script(model):
    return os.path.join(ROOT, "bench", "probe", f"train_{model}.py")


def middle_host_ms(folder):
    """The host work that brings the loop's host to its GPU, from the run at host work 0: the GPU's
    time per step (median over the `none` blocks) less the host's own time per step. The host's own
    time is taken from each block's first step, which starts from an idle GPU after the block's
    closing synchronize: later steps of a GPU-bound loop wait inside their launches for a full
    queue, and that wait would count as host work."""
    gpu, own = [], []
    with open(os.path.join(folder, "blocks.jsonl")) as f:
        for line in f:
            block = json.loads(line)
            if block.get("style") == "none" and block.get("gpu_ms_median"):
                gpu.append(block["gpu_ms_median"])
    first = {}
    with open(os.path.join(folder, "steps.jsonl")) as f:
        for line in f:
            step = json.loads(line)
            if step.get("stage") == "block" and step["block"] not in first:
                first[step["block"]] = (step["f_ns"] + step["b_ns"] + step["o_ns"] - sum(step["waits_ns"])) * 1e-6
    with open(os.path.join(folder, "ab.json")) as f:
        step_ms = json.load(f)["baseline_step_ms"]
    gpu_ms = median(gpu) if gpu else step_ms
    own_ms = median(list(first.values())) if first else 0.0
    return round(max(0.5, gpu_ms - own_ms), 1), gpu_ms, own_ms


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def run_cell(out, model, host, est_ms, scale, env):
    seconds = SECONDS.get(model, 30) * scale
    steps = max(400, int(seconds * 1000 / est_ms))
    # Blocks of about 0.3 s: enough rounds in the time for a narrow interval.
    block = max(5, min(20, int(300 / est_ms)))
    folder = os.path.join(out, f"{model}-h{host:g}")
    cmd = [sys.executable, "-m", "synctax_probe", "--ab", "item", "--quiet", "--trace-gz", "--block-steps",
           str(block), "--out", folder, script(model), "--steps", str(steps), "--host-work-ms", str(host)]
    print(f"{model} host {host:g} ms: {steps} steps in blocks of {block}", flush=True)
    try:
        subprocess.run(cmd, env=env, check=False, stdout=subprocess.DEVNULL, timeout=3 * seconds + 60)
    except subprocess.TimeoutExpired:
        print(f"{model} host {host:g} ms: stopped after {3 * seconds + 60:.0f} s", flush=True)
    return {"model": model, "host_work_ms": host, "folder": os.path.basename(folder), "steps": steps,
            "block_steps": block}


def record(out, scale, models):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "probe") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cells = []
    for model in models:
        cells.append(run_cell(out, model, 0.0, ESTIMATE_MS.get(model, 20), scale, env))
        try:
            host, gpu_ms, own_ms = middle_host_ms(os.path.join(out, cells[-1]["folder"]))
        except (OSError, KeyError, ValueError, json.JSONDecodeError) as e:
            print(f"{model}: no middle-regime host work ({type(e).__name__}: {e})", flush=True)
            continue
        print(f"{model}: GPU {gpu_ms:.2f} ms a step, host's own {own_ms:.2f} ms: host work {host:g} ms", flush=True)
        cells[-1].update(gpu_ms=gpu_ms, host_own_ms=own_ms)
        cells.append(run_cell(out, model, host, max(gpu_ms, own_ms + host) + 0.2 * gpu_ms, scale, env))
    with open(os.path.join(out, "cells.json"), "w") as f:
        json.dump(cells, f, indent=1)


def compare(out, runner):
    with open(os.path.join(out, "cells.json")) as f:
        cells = json.load(f)
    rows, hits = [], 0
    for c in cells:
        folder = os.path.join(out, c["folder"])
        whatif_dir = os.path.join(folder, "whatif")
        run = subprocess.run([runner, "trace", folder, "--out", whatif_dir], capture_output=True, text=True)
        try:
            with open(os.path.join(folder, "ab.json")) as f:
                item = json.load(f)["estimates"]["item"]
            with open(os.path.join(whatif_dir, "trace-summary.json")) as f:
                whatif = json.load(f)["whatif"]
            row = next(r for r in whatif["rows"] if r["style"] == "item")
        except (OSError, KeyError, TypeError, StopIteration, json.JSONDecodeError) as e:
            rows.append((c, None, None, f"no comparison: {type(e).__name__} {e}; runner exit {run.returncode}"))
            continue
        diff = row["tax_pct"] - item["pct"]
        ok = abs(diff) <= 3 or item["ci_low"] <= row["tax_pct"] <= item["ci_high"]
        hits += ok
        rows.append((c, item, row, "ok" if ok else "miss"))
    print(f"{'loop':<14} {'host ms':>7}  {'measured (probe --ab item)':<28} {'what-if item':<26} {'diff':>6}")
    for c, item, row, verdict in rows:
        if item is None:
            print(f"{c['model']:<14} {c['host_work_ms']:>7g}  {verdict}")
            continue
        measured = f"{item['pct']:+.1f}% [{item['ci_low']:+.1f}, {item['ci_high']:+.1f}]"
        predicted = f"{row['tax_pct']:+.1f}% [{row['tax_low_pct']:+.1f}, {row['tax_high_pct']:+.1f}]"
        print(f"{c['model']:<14} {c['host_work_ms']:>7g}  {measured:<28} {predicted:<26} "
              f"{row['tax_pct'] - item['pct']:>+6.1f}  {verdict}")
    print(f"within 3 points or inside the measured interval: {hits} of {len(rows)} (goal: 9 of 10)")
    return 0 if hits >= 0.9 * len(rows) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--scale", type=float, default=1.0, help="each loop's training time x this")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--compare", metavar="RUNNER", help="compare the folders in OUT with RUNNER's what-if")
    args = parser.parse_args()
    if args.compare:
        return compare(args.out, args.compare)
    os.makedirs(args.out, exist_ok=True)
    record(args.out, args.scale, [m for m in args.models.split(",") if m])
    return 0


if __name__ == "__main__":
    sys.exit(main())
