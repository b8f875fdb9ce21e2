#!/usr/bin/env python3
"""How long a sync right after the step waits, against the host's own time for the step, from a run's
steps.csv: every timed `item` step at a host work above 0, its wait (host_logging_us) less G - D, by
band of D (host_dispatch_us less the host work). G is each group's measured GPU time per step, from
the results.json beside the steps (STEPS.csv.gz next to STEPS.json.gz, as under docs/results/). A
step that starts on an idle GPU and keeps the GPU busy to its end waits G - D plus the GPU's start.

usage: sync-wait-against-host.py RUN-steps.csv.gz...
"""
import csv
import gzip
import json
import statistics
import sys

BANDS = ((16, 22), (22, 26), (26, 29), (29, 32), (32, 40))


def main():
    for path in sys.argv[1:]:
        results = json.load(gzip.open(path.replace("-steps.csv.gz", ".json.gz"), "rt"))
        gpu_ms = {g["host_work_us"]: g["regime"]["g_ms"] for g in results["groups"] if g["regime"].get("available")}
        points = []
        for row in csv.DictReader(gzip.open(path, "rt")):
            work = int(row["host_work_us"])
            if int(row["round"]) < 0 or row["style"] != "item" or work == 0 or work not in gpu_ms:
                continue
            d_ms = float(row["host_dispatch_us"]) / 1e3 - work / 1e3
            points.append((d_ms, float(row["host_logging_us"]) / 1e3 - (gpu_ms[work] - d_ms)))
        print(path)
        for lo, hi in BANDS:
            band = [excess for d_ms, excess in points if lo <= d_ms < hi]
            if band:
                print(f"  D {lo:2d}-{hi:2d} ms: {len(band):4d} steps, wait - (G - D) median {statistics.median(band):+.2f} ms, "
                      f"mean {statistics.mean(band):+.2f} ms")


if __name__ == "__main__":
    main()
