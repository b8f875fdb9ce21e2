#!/usr/bin/env python3
"""What the probe costs a loop as its user feels it: the same training script run plainly and under
`python3 -m synctax_probe` (its defaults: no --ab, the capture and everything else) in separate
processes, in turn, plain first; each process's step time from the script's own clock (the steps
of the run's second half, after the probe's warm-up, capture and settling), never the probe's.
The cost is the geometric mean of the pairs' ratios (probe over the plain run just before it) with
a bootstrap 95% interval over the pairs; the whole process's wall time likewise, start-up included.

    python3 bench/probe/process_cost.py [--pairs 10] [--seconds 8] [--json FILE] -- tiny_mlp resnet34:--side,160

Each loop is a bench/probe/train_<loop>.py script, its arguments after a colon, comma-separated."""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, "..", "..", "probe")
sys.path.insert(0, PROBE)
from synctax_probe import stats  # noqa: E402  (plain statistics; nothing attached here)


def pinned(cpus):
    """What runs a child on those CPUs only (None: where the scheduler puts it)."""
    return None if not cpus else (lambda: os.sched_setaffinity(0, cpus))


def run(cmd, env, timeout, cpus=None):
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, preexec_fn=pinned(cpus))
    wall = time.perf_counter() - t0
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line), wall, done
    raise RuntimeError(f"no result from {' '.join(cmd)} (exit {done.returncode}): {done.stderr[-1500:]}")


def cpu_list(text):
    """`0-3,8` as a set of CPU numbers."""
    cpus = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def interval(ratios, seed):
    logs = [math.log(r) for r in ratios]
    return stats.bootstrap_interval(logs, 2000, seed)


def measure(loop, extra, pairs, seconds, seed, work, clock_from, cpus):
    script = os.path.join(HERE, f"train_{loop}.py")
    env = dict(os.environ, PYTHONPATH=PROBE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # The step time, from one short plain run: as many steps as take `seconds`.
    probe_run, _, _ = run([sys.executable, script, "--steps", "200"] + extra, env, 600, cpus)
    steps = max(400, int(seconds * 1000 / probe_run["ms_per_step"]))
    plain_cmd = [sys.executable, script, "--steps", str(steps), "--clock-from", str(clock_from)] + extra
    rows = []
    for i in range(pairs):
        folder = os.path.join(work, f"{loop}-{i}")
        probed_cmd = [sys.executable, "-m", "synctax_probe", "--quiet", "--out", folder] + plain_cmd[1:]
        a, wall_a, _ = run(plain_cmd, env, seconds * 10 + 300, cpus)
        b, wall_b, _ = run(probed_cmd, env, seconds * 10 + 300, cpus)
        try:
            with open(os.path.join(folder, "end.json")) as f:
                end = json.load(f)
        except (OSError, json.JSONDecodeError):
            end = {}
        capture = end.get("capture_first_step")
        rows.append({"plain_ms": a["ms_per_step"], "probe_ms": b["ms_per_step"], "plain_s": wall_a, "probe_s": wall_b,
                     "capture_after_effect": end.get("capture_after_effect"), "probe_steps": end.get("steps"),
                     "capture_first_step": capture, "clock_step": b.get("clock_step"),
                     # the capture inside the script's clocked steps: a one-off cost in what is timed
                     "capture_clocked": capture is not None and b.get("clock_step") is not None
                     and capture + 15 > b["clock_step"]})
        print(f"  {loop} pair {i + 1}: plain {a['ms_per_step']:.3f} ms, probe {b['ms_per_step']:.3f} ms a step "
              f"({b['ms_per_step'] / a['ms_per_step'] * 100 - 100:+.1f}%); whole process {wall_a:.1f} s, "
              f"{wall_b:.1f} s", flush=True)
    step = interval([r["probe_ms"] / r["plain_ms"] for r in rows], seed)
    whole = interval([r["probe_s"] / r["plain_s"] for r in rows], seed + 1)
    plain_ms = stats.median([r["plain_ms"] for r in rows])
    return {"loop": loop, "args": extra, "steps": steps, "pairs": rows, "step_cost": step, "process_cost": whole,
            "plain_ms": plain_ms}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=10)
    p.add_argument("--seconds", type=float, default=8.0, help="each run's length at the loop's speed (default 8)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clock-from", type=float, default=0.6,
                   help="the scripts time their steps from this fraction of the run on (default 0.6)")
    p.add_argument("--json", help="write every pair and the estimates here")
    p.add_argument("--cpus", type=cpu_list, help="run every process, plain and probed alike, on these CPUs (0-7, 0,2,4)")
    p.add_argument("loops", nargs="+", help="LOOP or LOOP:ARG,ARG,... (train_LOOP.py's arguments)")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="synctax-process-cost-")
    results = []
    for spec in args.loops:
        loop, _, rest = spec.partition(":")
        extra = [x for x in rest.split(",") if x]
        r = measure(loop, extra, args.pairs, args.seconds, args.seed, work, args.clock_from, args.cpus)
        results.append(r)
        s, w = r["step_cost"], r["process_cost"]
        print(f"process cost {loop} {' '.join(extra)}: step {s['pct']:+.1f}% [{s['ci_low']:+.1f}, {s['ci_high']:+.1f}] "
              f"on a {r['plain_ms']:.3f} ms step; whole process {w['pct']:+.1f}% [{w['ci_low']:+.1f}, "
              f"{w['ci_high']:+.1f}] ({args.pairs} pairs of separate processes, {r['steps']} steps each; "
              f"the capture inside the clocked steps in {sum(x['capture_clocked'] for x in r['pairs'])})", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
