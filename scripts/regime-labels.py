#!/usr/bin/env python3
"""The replay's regime labels over many runs: reads `synctax-run simulate` outputs (or a runner's
-predicted-vs-measured.txt) and prints, per model, mode and host work, how many runs gave each label
and the range of (D + H) / G, then each file's labels, one line per file.

    python3 scripts/regime-labels.py SIMULATE_OUTPUT...
"""
import collections
import os
import re
import sys

LINE = re.compile(r"^([a-z0-9_]+)/(eager|cuda_graph)(?: h=\d+ ms)?: replay of \d+ launches, "
                  r"D ([0-9.]+) ms, G ([0-9.]+) ms, H (\d+) us.* -> ([a-z_]+)$")


def main():
    groups = collections.defaultdict(list)
    per_file = []
    for path in sys.argv[1:]:
        labels = []
        with open(path) as f:
            for line in f:
                m = LINE.match(line.rstrip())
                if not m:
                    continue
                model, mode, d, g, h, label = m.groups()
                key = (model, mode, int(h))
                groups[key].append((label, (float(d) + int(h) * 1e-3) / float(g)))
                labels.append(f"{model}/{mode}{'' if int(h) == 0 else f' h={int(h) // 1000} ms'} {label}")
        per_file.append((os.path.basename(path), labels))
    print(f"{'model/mode':24} {'H (ms)':>6} {'runs':>4}  {'(D+H)/G':>11}  labels")
    for (model, mode, h), rows in sorted(groups.items()):
        counts = collections.Counter(label for label, _ in rows)
        ratios = [r for _, r in rows]
        print(f"{model + '/' + mode:24} {h // 1000:6d} {len(rows):4d}  {min(ratios):5.2f}-{max(ratios):5.2f}  "
              + ", ".join(f"{label} {n}" for label, n in counts.most_common()))
    print()
    for name, labels in per_file:
        if labels:
            print(f"{name}: {'; '.join(labels)}")


if __name__ == "__main__":
    main()
