#!/usr/bin/env python3
"""Times commands: wall time (perf_counter around the process) and peak RSS ("Maximum resident set
size" of /usr/bin/time -v, or ru_maxrss from wait4 when /usr/bin/time is missing: the same number).

As a program: timecmd.py --repeat N --bytes JSON_BYTES -- COMMAND...  prints one line per run and
the median with its spread (min..max).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

GNU_TIME = "/usr/bin/time"


def run_once(cmd):
    """Returns (seconds, peak RSS in KiB, exit status); the command's stdout is discarded."""
    if os.path.exists(GNU_TIME):
        with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
            start = time.perf_counter()
            rc = subprocess.call([GNU_TIME, "-v", "-o", report.name] + cmd, stdout=subprocess.DEVNULL)
            seconds = time.perf_counter() - start
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read())
            return seconds, int(m.group(1)) if m else -1, rc
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    return seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def spread(values):
    """'median [min..max]' of a list."""
    return statistics.median(values), min(values), max(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bytes", type=int, required=True, help="uncompressed JSON bytes the command reads")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    rates, rss = [], []
    for i in range(args.repeat):
        load = load_average()
        seconds, kib, rc = run_once(cmd)
        if rc != 0:
            print("run %d: exit status %d" % (i + 1, rc))
            return 1
        rates.append(args.bytes / 1e6 / seconds)
        rss.append(kib)
        print("  run %d: %.3f s, %.1f MB/s, peak RSS %.1f MiB (load %.2f before)"
              % (i + 1, seconds, rates[-1], kib / 1024, load))
    med, lo, hi = spread(rates)
    rmed, rlo, rhi = spread(rss)
    print("RESULT MBps %.1f [%.1f..%.1f] peakRssKiB %d [%d..%d] rssPercent %.2f"
          % (med, lo, hi, rmed, rlo, rhi, 100.0 * rmed * 1024 / args.bytes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
