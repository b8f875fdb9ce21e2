#!/usr/bin/env python3
"""How steady the host was in one or more runs: for each run (a results folder with steps.csv or
steps.csv.gz, or such a file) and each eager model, the baseline's blocks' mean host time per step
(host work left out), as median and 10th-90th percentiles over the blocks, their spread
((p90 - p10) / median), the first half's median against the second's, and the run's order.

    python3 scripts/host-steadiness.py RUN...
"""
import collections
import csv
import gzip
import os
import statistics
import sys


def quantile(values, q):
    s = sorted(values)
    x = q * (len(s) - 1)
    i = int(x)
    return s[i] if i + 1 >= len(s) else s[i] + (x - i) * (s[i + 1] - s[i])


def steps_file(run):
    if os.path.isfile(run):
        return run
    path = os.path.join(run, "steps.csv.gz")
    return path if os.path.exists(path) else os.path.join(run, "steps.csv")


def blocks_of(run):
    path = steps_file(run)
    opener = gzip.open if path.endswith(".gz") else open
    blocks = collections.defaultdict(list)
    starts = {}
    with opener(path, "rt") as f:
        for row in csv.DictReader(f):
            if row["mode"] != "eager" or row["style"] != "none" or int(row["round"]) < 0:
                continue
            key = (row["model"], int(row["host_work_us"]), int(row["round"]))
            blocks[key].append((float(row["host_dispatch_us"]) - int(row["host_work_us"])) * 1e-3)
            starts.setdefault(key, float(row["start_ms"]))
    per_model = collections.defaultdict(list)
    for key, ms in blocks.items():
        per_model[key[:2]].append((starts[key], sum(ms) / len(ms)))
    return per_model


def main():
    print(f"{'run':32} {'model':18} {'blocks':>6} {'median':>8} {'p10':>8} {'p90':>8} {'spread':>7} {'1st half':>9} {'2nd half':>9}")
    for run in sys.argv[1:]:
        for (model, host_us), timed in sorted(blocks_of(run).items()):
            ms = [v for _, v in sorted(timed)]
            half = len(ms) // 2
            med = statistics.median(ms)
            name = model if host_us == 0 else f"{model}@{host_us}us"
            print(f"{os.path.basename(run.rstrip('/')).replace('-steps.csv.gz', ''):32} {name:18} {len(ms):6d} {med:8.3f} {quantile(ms, 0.1):8.3f} "
                  f"{quantile(ms, 0.9):8.3f} {(quantile(ms, 0.9) - quantile(ms, 0.1)) / med:7.2f} "
                  f"{statistics.median(ms[:half]) if half else med:9.3f} {statistics.median(ms[half:]):9.3f}")


if __name__ == "__main__":
    main()
