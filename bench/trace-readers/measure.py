#!/usr/bin/env python3
"""Measures the three readers of trace-bench on trace files, interleaved: every round runs each
reader once per file, in a fresh order drawn from a seeded generator (the order is printed), so
drift and other engineers' load fall on all readers alike. Reports per reader and file the median
MB/s of uncompressed JSON with its spread, the median per-round ratio to RapidJSON, and peak RSS.

  measure.py [--rounds 5] [--seed 1] [--bench /tmp/trace-bench/trace-bench] FILE...
"""
import argparse
import os
import random
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "trace-load"))
import timecmd  # noqa: E402

READERS = ("rapidjson", "nlohmann", "simdjson")


def json_bytes(bench, path):
    """Uncompressed size, as the reader itself counted it (one untimed run that also warms the cache)."""
    out = subprocess.run([bench, "rapidjson", path], capture_output=True, text=True, check=True).stdout
    return int(out.split("jsonBytes ")[1].split()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bench", default="/tmp/trace-bench/trace-bench")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sizes = {f: json_bytes(args.bench, f) for f in args.files}
    runs = {}  # (file, reader) -> list of (MB/s, KiB) by round
    print("seed %d, %d rounds" % (args.seed, args.rounds))
    for r in range(args.rounds):
        for f in args.files:
            order = list(READERS)
            rng.shuffle(order)
            for reader in order:
                load = timecmd.load_average()
                seconds, kib, rc = timecmd.run_once([args.bench, reader, f])
                if rc != 0:
                    sys.exit("%s %s: exit status %d" % (reader, f, rc))
                rate = sizes[f] / 1e6 / seconds
                runs.setdefault((f, reader), []).append((rate, kib))
                print("round %d %-28s %-9s %7.1f MB/s %8.1f MiB  load %.2f"
                      % (r + 1, os.path.basename(f), reader, rate, kib / 1024, load))
    print()
    print("| file | JSON MB | reader | MB/s median [min..max] | ratio to RapidJSON, median [min..max] "
          "| peak RSS MiB median [min..max] | RSS % of JSON |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for f in args.files:
        base = [rate for rate, _ in runs[(f, "rapidjson")]]
        for reader in READERS:
            rates = [rate for rate, _ in runs[(f, reader)]]
            rss = [kib / 1024 for _, kib in runs[(f, reader)]]
            ratios = [a / b for a, b in zip(rates, base)]
            m, lo, hi = timecmd.spread(rates)
            qm, qlo, qhi = timecmd.spread(ratios)
            rm, rlo, rhi = timecmd.spread(rss)
            print("| %s | %.0f | %s | %.0f [%.0f..%.0f] | %.2f [%.2f..%.2f] | %.1f [%.1f..%.1f] | %.1f%% |"
                  % (os.path.basename(f), sizes[f] / 1e6, reader, m, lo, hi, qm, qlo, qhi,
                     rm, rlo, rhi, 100.0 * rm * 1024 * 1024 / sizes[f]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
