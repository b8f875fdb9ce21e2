#!/usr/bin/env python3
"""Two folders of `synctax-run simulate RESULTS.json` outputs, compared file by file: how many cells
each has within 2 points of the measured overhead, its largest miss, and every cell whose
prediction moved by 0.3 points or more between them.

Usage: scripts/compare-predictions.py BEFORE_DIR AFTER_DIR
(each holds NAME.txt files, the same names in both, as `synctax-run simulate X.json > DIR/NAME.txt`)
"""
import os
import re
import sys

GROUP = re.compile(r"^(\S+/\S+(?: h=\S+ ms)?): ")
CELL = re.compile(
    r"^  (\S+)\s+([+-]?\d+\.\d)% \[([+-]?\d+\.\d), ([+-]?\d+\.\d)\]\s+([+-]?\d+\.\d)%\s+([+-]?\d+\.\d)")


def cells(path):
    """{(group, style): (measured, low, high, predicted, diff)} of one simulate output."""
    out, group = {}, None
    with open(path) as f:
        for line in f:
            m = GROUP.match(line)
            if m:
                group = m.group(1)
                continue
            m = CELL.match(line)
            if m and group:
                out[(group, m.group(1))] = tuple(float(m.group(i)) for i in range(2, 7))
    return out


def summary(c):
    within = sum(abs(v[4]) <= 2.0 for v in c.values())
    worst = max((abs(v[4]) for v in c.values()), default=0.0)
    return f"{within}/{len(c)} within 2, largest {worst:.1f}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before_dir, after_dir = sys.argv[1:]
    for name in sorted(os.listdir(before_dir)):
        after_path = os.path.join(after_dir, name)
        if not name.endswith(".txt") or not os.path.exists(after_path):
            continue
        a, b = cells(os.path.join(before_dir, name)), cells(after_path)
        print(f"{name[:-4]}: {summary(a)} -> {summary(b)}")
        for key, v in a.items():
            if key in b and abs(v[3] - b[key][3]) >= 0.3:
                print(f"    {key[0]:26s} {key[1]:28s} measured {v[0]:+.1f} [{v[1]:+.1f}, {v[2]:+.1f}]"
                      f"  predicted {v[3]:+.1f} -> {b[key][3]:+.1f}")


if __name__ == "__main__":
    main()
