#!/usr/bin/env python3
"""How much slower a model's steps dispatched in the blocks of a style than in the baseline's, from
steps.csv files (KEEP_STEPS=1 runs): per file, each style's mean host_dispatch_us over its measured
blocks less none's, with the mean step and host_logging_us beside. For looking at what a read-back
costs the steps after it.

usage: after-sync-from-steps.py [--model tiny_mlp] STEPS.csv[.gz]...
"""
import argparse
import csv
import gzip
import statistics
from collections import defaultdict


def opened(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="tiny_mlp")
    ap.add_argument("--styles", default="item,progress_bar_postfix,aa_control")
    ap.add_argument("steps", nargs="+")
    a = ap.parse_args()
    styles = a.styles.split(",")
    print(f"{'file':60s} {'none host us':>12s} " + " ".join(f"{s + ' +disp us':>26s}" for s in styles))
    added = defaultdict(list)
    for path in a.steps:
        disp = defaultdict(list)
        step = defaultdict(list)
        with opened(path) as f:
            for r in csv.DictReader(f):
                if r["model"] != a.model or r["mode"] != "eager" or int(r["round"]) < 0 or r.get("host_work_us", "0") != "0":
                    continue
                disp[r["style"]].append(float(r["host_dispatch_us"]))
                step[r["style"]].append(float(r["host_dispatch_us"]) + float(r["host_logging_us"]))
        if "none" not in disp:
            continue
        base = statistics.mean(disp["none"])
        cols = []
        for s in styles:
            if s in disp:
                added[s].append(statistics.mean(disp[s]) - base)
                cols.append(f"{added[s][-1]:+26.1f}")
            else:
                cols.append(f"{'-':>26s}")
        print(f"{path:60s} {statistics.mean(step['none']):12.1f} " + " ".join(cols))
    print(f"{'mean (slower in n of N files)':60s} {'':12s} " + " ".join(
        f"{statistics.mean(added[s]):+13.1f} ({sum(v > 0 for v in added[s])} of {len(added[s])})".rjust(26)
        if added[s] else f"{'-':>26s}" for s in styles))


if __name__ == "__main__":
    main()
