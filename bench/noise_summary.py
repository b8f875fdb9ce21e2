#!/usr/bin/env python3
"""Summarises bench/noise-sources.sh: for each variant and model, how noisy a block is (the
standard deviation of log ms/step across the baseline's blocks), how much pairing by round helps
(the A/A control's paired standard deviation), how wide the intervals came out, and how steps
within a block are correlated (from steps.csv)."""
import csv
import gzip
import json
import math
import os
import statistics as st
import sys


def sd_pct(values):
    return st.stdev(values) * 100 if len(values) > 2 else float("nan")


def step_stats(path):
    """Per model: coefficient of variation of step durations and their autocorrelation at lags
    1 and 5 within blocks (start of a step to the start of the next)."""
    if not os.path.exists(path):
        return {}
    blocks = {}
    with gzip.open(path, "rt") as f:
        for row in csv.DictReader(f):
            if int(row["round"]) < 0:
                continue
            key = (row["model"], row["style"], row["round"])
            blocks.setdefault(key, []).append(float(row["start_ms"]))
    out = {}
    for (model, style, _), starts in blocks.items():
        if style not in ("none", "aa_control") or len(starts) < 3:
            continue
        durations = [b - a for a, b in zip(starts, starts[1:])]
        out.setdefault(model, []).append(durations)
    stats = {}
    for model, blocks_of_model in out.items():
        flat = [math.log(d) for b in blocks_of_model for d in b if d > 0]
        m = st.mean(flat)
        var = st.pvariance(flat)

        def ac(lag):
            num, n = 0.0, 0
            for b in blocks_of_model:
                lb = [math.log(d) for d in b]
                for i in range(len(lb) - lag):
                    num += (lb[i] - m) * (lb[i + lag] - m)
                    n += 1
            return num / n / var if n and var else float("nan")

        stats[model] = (math.sqrt(var) * 100, ac(1), ac(5))
    return stats


def main(root, variants):
    print(f"{'variant':10} {'model':13} {'ms/step':>8} {'rounds':>6} {'block sd':>8} {'aa sd':>6} "
          f"{'aa +-':>6} {'item':>16} {'step sd':>7} {'ac1':>5} {'ac5':>5}")
    for variant in variants:
        path = os.path.join(root, variant, "results.json")
        if not os.path.exists(path):
            print(f"{variant:10} (no results)")
            continue
        with open(path) as f:
            data = json.load(f)
        steps = step_stats(os.path.join(root, variant, "steps.csv.gz"))
        for group in data["groups"]:
            model = group["model"]
            cells = {c["style"]: c for c in data["cells"] if c["model"] == model and c["status"] == "ok"}
            base = dict(zip(cells["none"]["block_rounds"], cells["none"]["block_ms_per_step"]))
            aa = dict(zip(cells["aa_control"]["block_rounds"], cells["aa_control"]["block_ms_per_step"]))
            rounds = sorted(set(base) & set(aa))
            block_sd = sd_pct([math.log(base[r]) for r in rounds])
            aa_sd = sd_pct([math.log(aa[r] / base[r]) for r in rounds])
            aa_ci = cells["aa_control"]["overhead_pct"]
            item = cells["item"]["overhead_pct"]
            s = steps.get(model, (float("nan"),) * 3)
            print(f"{variant:10} {model:13} {cells['none']['step_ms']['mean']:8.3f} {group['rounds']:6d} "
                  f"{block_sd:7.2f}% {aa_sd:5.2f}% {(aa_ci['ci_high'] - aa_ci['ci_low']) / 2:6.2f} "
                  f"{item['estimate']:+6.2f} +-{(item['ci_high'] - item['ci_low']) / 2:5.2f} "
                  f"{s[0]:6.2f}% {s[1]:5.2f} {s[2]:5.2f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
