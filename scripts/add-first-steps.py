#!/usr/bin/env python3
"""Adds each block's first two steps' host time (`block_first_steps_ms`, which `synctax-run run` keeps
since it was added) to a results file from before, from the steps file of the same run
(`steps.csv`, gzipped or not): per cell, for each of its block_rounds, the host dispatch of steps 0
and 1 of that round's block less the cell's host work, in ms. `synctax-run simulate` over the result
then replays the host's spread from step to step as a run of today's runner would.

    python3 scripts/add-first-steps.py RESULTS.json[.gz] STEPS.csv[.gz] OUT.json
"""
import csv
import gzip
import json
import sys


def opened(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def main():
    results_path, steps_path, out_path = sys.argv[1:4]
    with opened(results_path) as f:
        results = json.load(f)
    firsts = {}  # (model, mode, style, host_work_us, batch, round) -> {step: dispatch us}
    with opened(steps_path) as f:
        for row in csv.DictReader(f):
            if row["step"] not in ("0", "1") or int(row["round"]) < 0:
                continue
            key = (row["model"], row["mode"], row["style"], int(row["host_work_us"]), int(row["batch"]),
                   int(row["round"]))
            firsts.setdefault(key, {})[row["step"]] = float(row["host_dispatch_us"])
    added = 0
    for cell in results["cells"]:
        pairs = []
        for rnd in cell.get("block_rounds", []):
            steps = firsts.get((cell["model"], cell["mode"], cell["style"], cell["host_work_us"], cell["batch"], rnd))
            if not steps or "0" not in steps or "1" not in steps:
                pairs = []
                break
            pairs.append([max(0.0, (steps[s] - cell["host_work_us"]) / 1000.0) for s in ("0", "1")])
        if pairs:
            cell["block_first_steps_ms"] = pairs
            added += 1
    with open(out_path, "w") as f:
        json.dump(results, f, indent=1)
    print(f"{out_path}: first two steps added to {added} of {len(results['cells'])} cells")


if __name__ == "__main__":
    main()
