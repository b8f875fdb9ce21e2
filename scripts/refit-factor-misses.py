#!/usr/bin/env python3
"""How far each `item` prediction of `middle-regime` runs misses, against the factor the replay
put on the profiler's cost per event to meet the baseline blocks' host time ("the profiler's cost
per event x F"): `synctax-run simulate` of each results file (.json or .json.gz), the cells whose
replay refitted that cost, their correlation and the misses per band of the factor.

usage: refit-factor-misses.py SYNCTAX_RUN RESULTS.json[.gz]...
"""
import gzip
import math
import re
import statistics
import subprocess
import sys
import tempfile


def cells(binary, path):
    with tempfile.NamedTemporaryFile("w", suffix=".json") as plain:
        plain.write(gzip.open(path, "rt").read() if path.endswith(".gz") else open(path).read())
        plain.flush()
        out = subprocess.run([binary, "simulate", plain.name], capture_output=True, text=True).stdout
    factor = None
    for line in out.splitlines():
        head = re.match(r"\S+/eager h=(\d+) ms", line)
        if head:
            fit = re.search(r"cost per event x ([\d.]+) to the baseline", line)
            factor = float(fit.group(1)) if fit else None
            continue
        row = re.match(r"\s+item\s+([+-][\d.]+)%.*?([+-][\d.]+)%\s+([+-][\d.]+)$", line.rstrip())
        if row and factor is not None:
            yield factor, float(row.group(3))


def main():
    binary, paths = sys.argv[1], sys.argv[2:]
    rows = [c for p in paths for c in cells(binary, p)]
    if len(rows) < 2:
        sys.exit("fewer than two cells with a refitted cost per event")
    xs, ys = [r[0] for r in rows], [r[1] for r in rows]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    r = sum((x - mx) * (y - my) for x, y in rows) / math.sqrt(
        sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))
    print(f"{len(rows)} item cells; correlation of the factor and predicted - measured: {r:+.2f}")
    for lo, hi in ((0, 0.8), (0.8, 0.95), (0.95, 1.05), (1.05, 1.25), (1.25, math.inf)):
        band = [y for x, y in rows if lo <= x < hi]
        if band:
            print(f"factor {lo:.2f}-{hi:.2f}: {len(band):3d} cells, mean {statistics.mean(band):+.2f} points, "
                  f"{sum(abs(v) > 2 for v in band)} beyond 2")


if __name__ == "__main__":
    main()
