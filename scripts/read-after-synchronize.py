#!/usr/bin/env python3
"""A results file as the replay priced reads before they were timed after a step: each captured
style cost's read_us replaced by its read_after_synchronize_us (the same read right after a
synchronize, as it was timed before). `synctax-run simulate` over both files puts the two prices
side by side on one run. With --drain-median, each captured step's drain_ms is replaced by its
drain_median_ms instead (the median of the drains, as drain_ms was before it was paired with the
host time of the same steps).

    python3 scripts/read-after-synchronize.py [--drain-median] RESULTS.json[.gz] OUT.json
"""
import gzip
import json
import sys


def main():
    args = sys.argv[1:]
    drain = "--drain-median" in args
    if drain:
        args.remove("--drain-median")
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    source, target = args
    with (gzip.open if source.endswith(".gz") else open)(source, "rt") as f:
        results = json.load(f)
    swapped = 0
    for group in results.get("groups", []):
        replay = group.get("replay") or {}
        if drain:
            if replay.get("drain_median_ms"):
                replay["drain_ms"] = replay["drain_median_ms"]
                swapped += 1
            continue
        for cost in (replay.get("style_costs") or {}).values():
            if "read_after_synchronize_us" in cost:
                cost["read_us"] = cost["read_after_synchronize_us"]
                swapped += 1
    with open(target, "w") as f:
        json.dump(results, f)
    what = "drains put back to the median of the drains" if drain else \
        "read costs put back to their time right after a synchronize"
    print(f"{swapped} {what}", file=sys.stderr)
    if swapped == 0:
        sys.exit("nothing to put back: the file keeps no " + ("drain_median_ms" if drain else "read_after_synchronize_us"))


if __name__ == "__main__":
    main()
