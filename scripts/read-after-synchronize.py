#!/usr/bin/env python3
"""A results file as the replay priced reads before they were timed after a step: each captured
style cost's read_us replaced by its read_after_synchronize_us (the same read right after a
synchronize, as it was timed before). `synctax-run simulate` over both files puts the two prices
side by side on one run.

    python3 scripts/read-after-synchronize.py RESULTS.json[.gz] OUT.json
"""
import gzip
import json
import sys


def main():
    source, target = sys.argv[1], sys.argv[2]
    with (gzip.open if source.endswith(".gz") else open)(source, "rt") as f:
        results = json.load(f)
    swapped = 0
    for group in results.get("groups", []):
        for cost in ((group.get("replay") or {}).get("style_costs") or {}).values():
            if "read_after_synchronize_us" in cost:
                cost["read_us"] = cost["read_after_synchronize_us"]
                swapped += 1
    with open(target, "w") as f:
        json.dump(results, f)
    print(f"{swapped} read costs put back to their time right after a synchronize", file=sys.stderr)


if __name__ == "__main__":
    main()
