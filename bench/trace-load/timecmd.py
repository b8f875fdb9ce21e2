#!/usr/bin/env python3
"""Times commands: wall time (perf_counter around the process) and peak RSS ("Maximum resident set
size" of /usr/bin/time -v, or ru_maxrss from wait4 when /usr/bin/time is missing: the same number).

As a program: timecmd.py --repeat N --bytes JSON_BYTES --file F [--file G] -- COMMAND...  runs
COMMAND F (then COMMAND G) in each of N rounds, prints one line per run, then per file the median
MB/s and peak RSS with their spread (min..max) and, when given, whether the goals are met.
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
    ap.add_argument("--bytes", type=int, required=True, help="uncompressed JSON bytes in each file")
    ap.add_argument("--file", action="append", required=True,
                    help="appended to the command; several files are run in turn, round by round")
    ap.add_argument("--goal-mbps", type=float, help="goal for the first file: at least this MB/s")
    ap.add_argument("--goal-rss-percent", type=float, help="goal: peak RSS at most this %% of --bytes")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    rates = {f: [] for f in args.file}
    rss = {f: [] for f in args.file}
    for i in range(args.repeat):
        for f in args.file:
            load = load_average()
            seconds, kib, rc = run_once(cmd + [f])
            if rc != 0:
                print("%s %s: exit status %d" % (" ".join(cmd), f, rc))
                return 1
            rates[f].append(args.bytes / 1e6 / seconds)
            rss[f].append(kib)
            print("  round %d %s: %.3f s, %.1f MB/s, peak RSS %.1f MiB (load %.2f before)"
                  % (i + 1, os.path.basename(f), seconds, rates[f][-1], kib / 1024, load))
    print("median [min..max] of %d runs, MB/s of uncompressed JSON (%d bytes):" % (args.repeat, args.bytes))
    for n, f in enumerate(args.file):
        med, lo, hi = spread(rates[f])
        rmed, rlo, rhi = spread(rss[f])
        percent = 100.0 * rmed * 1024 / args.bytes
        goals = []
        if args.goal_mbps is not None and n == 0:
            goals.append("goal >= %.0f MB/s: %s" % (args.goal_mbps, "met" if med >= args.goal_mbps else "NOT met"))
        if args.goal_rss_percent is not None:
            goals.append("goal RSS <= %.0f%%: %s"
                         % (args.goal_rss_percent, "met" if percent <= args.goal_rss_percent else "NOT met"))
        print("  %-24s %7.1f MB/s [%.1f..%.1f]  peak RSS %.1f MiB [%.1f..%.1f] = %.2f%% of the JSON  %s"
              % (os.path.basename(f), med, lo, hi, rmed / 1024, rlo / 1024, rhi / 1024, percent,
                 "; ".join(goals)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
