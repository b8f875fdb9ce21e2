#!/usr/bin/env python3
"""Give a results.json written before blocks kept their host time (`block_dispatch_ms`) that time,
from the steps.csv the same run wrote: per cell and measured block, the mean over its steps of
host_dispatch_us less host_work_us, in ms, as the runner now records it (--first-step: the block's
first step's alone, which starts on an empty launch queue). Writes a new file.

    python3 scripts/block-dispatch-from-steps.py [--first-step] RESULTS.json STEPS.csv[.gz] OUT.json
"""
import collections
import csv
import gzip
import json
import sys


def main():
    args = sys.argv[1:]
    first_step = "--first-step" in args
    results, steps, out = [a for a in args if a != "--first-step"][:3]
    opener = gzip.open if steps.endswith(".gz") else open
    host = collections.defaultdict(list)
    with opener(steps, "rt") as f:
        for row in csv.DictReader(f):
            if int(row["round"]) < 0:
                continue
            key = (row["model"], row["mode"], row["style"], int(row["host_work_us"]), int(row["batch"]), int(row["round"]))
            host[key].append((int(row["step"]), (float(row["host_dispatch_us"]) - int(row["host_work_us"])) * 1e-3))
    with open(results) as f:
        run = json.load(f)
    for cell in run["cells"]:
        blocks = []
        for r in cell["block_rounds"]:
            ms = sorted(host[(cell["model"], cell["mode"], cell["style"], cell["host_work_us"], cell["batch"], r)])
            if not ms:
                sys.exit(f"{steps}: no steps for {cell['model']}/{cell['mode']}/{cell['style']} round {r}")
            values = [ms[0][1]] if first_step else [v for _, v in ms]
            blocks.append(max(0.0, sum(values) / len(values)))
        cell["block_dispatch_ms"] = blocks
    with open(out, "w") as f:
        json.dump(run, f, indent=1)


if __name__ == "__main__":
    main()
