#!/usr/bin/env python3
"""The probe judged against the loop as it runs without it. For each loop of the validation set at
host work 0 and at a middle host work, separate processes in turn (--repeats pairs of them): the
plain script measuring its own `loss.item()` tax (`--paired-seconds`: paired blocks none / none_aa
/ item, no probe imported), then the same script under `python3 -m synctax_probe --ab item`; with
--runner, the what-if of each probe folder (`RUNNER trace DIR`). Per cell:

- step: the probe's `none` blocks (ab.json's baseline_step_ms) against the plain process's just
  before, within 3% (with several pairs, the geometric mean of the pairs' ratios, its bootstrap
  interval reaching into +-3% counts);
- A/B and what-if: within 3 points of the plain tax (every plain process's rounds together), or
  inside its 95% interval; the A/B over every probe process's rounds, the what-if their median;
- the capture's after-effect (end.json): inside +-1% in every probe process (its interval
  reaching into it counts).

    scripts/gpu/probe-validate.py OUT [--runner build/bin/synctax-run] [--loops a,b] [--seconds S]
                                  [--repeats N] [--cpus LIST]
    scripts/gpu/probe-validate.py OUT --report [--runner ...]   # the table again, from OUT's files

--cpus runs every process, plain and probed alike, on those CPUs (`0-7`, `0,2,4`), so that the two
arms of a pair are not placed differently by the scheduler.

The middle host work brings the host to the GPU: the GPU's time a step less the host's own, both
from the plain process at host work 0. Prints one table; exit 0 when every goal is met (9 of 10
cells for the A/B and the what-if, every cell for the step and the after-effect)."""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "probe"))
sys.path.insert(0, os.path.join(ROOT, "bench", "probe"))
from synctax_probe import stats  # noqa: E402  (plain statistics; the probe is not attached here)
from process_cost import cpu_list, pinned  # noqa: E402  (the benchmark's --cpus)

# name: the script's arguments (dispatch-bound: tiny_mlp, transformer; GPU-bound: resnet50;
# item-heavy at host work 0: resnet34 and mobilenet_v2 at 160 px)
LOOPS = {
    "tiny_mlp": [],
    "transformer": [],
    "small_resnet": [],
    "resnet34": ["--side", "160", "--batch", "64"],
    "mobilenet_v2": ["--side", "160", "--batch", "96"],
    "resnet50": ["--batch", "32"],
}
STEP_PCT, TAX_PP, CAPTURE_PCT = 3.0, 3.0, 1.0


def script(loop):
    return os.path.join(ROOT, "bench", "probe", f"train_{loop}.py")


def last_json(text):
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                pass
    return None


def plain(loop, host, seconds, log, cpus=None):
    cmd = [sys.executable, script(loop), "--paired-seconds", str(seconds), "--host-work-ms", f"{host:g}"] + LOOPS[loop]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 6 + 120, preexec_fn=pinned(cpus))
    log.write(f"$ {' '.join(cmd)}\n{run.stdout[-2000:]}{run.stderr[-3000:]}\n")
    out = last_json(run.stdout)
    if out is None:
        raise RuntimeError(f"{loop} plain: no result (exit {run.returncode})")
    return out


def probed(loop, host, seconds, step_ms, folder, log, cpus=None):
    """The script under the probe, long enough for its warm-up, the blocks before the capture (and
    as many again, where it waits for a loop still speeding up), the capture and `seconds` of rounds."""
    block = math.ceil(max(20, 100.0 / step_ms))
    steps = int(300 + 16 * block + 15 + seconds * 1000 / step_ms)
    cmd = [sys.executable, "-m", "synctax_probe", "--ab", "item", "--trace-gz", "--out", folder, script(loop),
           "--steps", str(steps), "--host-work-ms", f"{host:g}"] + LOOPS[loop]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "probe") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds * 8 + 180,
                         preexec_fn=pinned(cpus))
    log.write(f"$ {' '.join(cmd)}\n{run.stdout[-1000:]}{run.stderr[-3000:]}\n")
    return steps


def whatif(runner, folder, log):
    out = os.path.join(folder, "whatif")
    run = subprocess.run([runner, "trace", folder, "--out", out], capture_output=True, text=True)
    log.write(f"$ {runner} trace {folder}\n{run.stdout[-3000:]}{run.stderr[-2000:]}\n")
    try:
        with open(os.path.join(out, "trace-summary.json")) as f:
            rows = json.load(f)["whatif"]["rows"]
        return next(r["tax_pct"] for r in rows if r["style"] == "item")
    except (OSError, KeyError, TypeError, StopIteration, json.JSONDecodeError):
        return None


def truth(plains):
    """The plain tax over every plain process's rounds together."""
    rounds = [r for p in plains for r in p["rounds"]]
    result = stats.analyse(rounds, ("item", "none_aa"), 2000, 1, 10)
    est = result.get("estimates") or {}
    return {"item": est.get("item"), "aa": est.get("none_aa"), "step_ms": result.get("baseline_step_ms"),
            "rounds": len(rounds)}


def step_ms(rounds):
    """The loop as it is (`none`), ms a step: the geometric mean over a process's rounds."""
    values = [r["none"] for r in rounds if r.get("none")]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def record(out, loops, seconds, repeats, cpus):
    cells = []
    with open(os.path.join(out, "log.txt"), "a") as log:
        for loop in loops:
            hosts = [0.0]
            for host in hosts:
                name = f"{loop}-h{host:g}"
                t0 = time.time()
                plains, folders = [], []
                for k in range(repeats):
                    p = plain(loop, host, seconds, log, cpus)
                    plains.append(p)
                    if host == 0 and k == 0 and p.get("gpu_ms") is not None:
                        hosts.append(round(max(0.5, p["gpu_ms"] - p["host_own_ms"]), 1))
                    folder = name if k == 0 else f"{name}-{k}"
                    probed(loop, host, seconds, step_ms(p["rounds"]) or 10.0, os.path.join(out, folder), log, cpus)
                    folders.append(folder)
                first = plains[0]
                cells.append({"loop": loop, "host_work_ms": host, "folders": folders, "plains": plains,
                              "gpu_ms": first.get("gpu_ms"), "host_own_ms": first.get("host_own_ms")})
                print(f"{name}: plain {step_ms(first['rounds']):.3f} ms a step, GPU {first.get('gpu_ms') or 0:.2f} ms, "
                      f"host's own {first.get('host_own_ms') or 0:.2f} ms; {len(folders)} pair(s), "
                      f"{time.time() - t0:.0f} s", flush=True)
                with open(os.path.join(out, "cells.json"), "w") as f:
                    json.dump(cells, f, indent=1)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError):
        return None


def text(e):
    return "%+.1f%% [%+.1f, %+.1f]" % (e["pct"], e["ci_low"], e["ci_high"]) if e else "-"


def near(value, est):
    return value is not None and est is not None and (abs(value - est["pct"]) <= TAX_PP
                                                      or est["ci_low"] <= value <= est["ci_high"])


def probe_side(out, folders, runner, log):
    """The probe processes of a cell: their A/B over all their rounds, the median of their what-ifs,
    each one's step of the loop as it is and capture check."""
    rounds, steps, whatifs, captures, flagged, rounds_from = [], [], [], [], [], []
    for name in folders:
        folder = os.path.join(out, name)
        ab = read_json(os.path.join(folder, "ab.json")) or {}
        end = read_json(os.path.join(folder, "end.json")) or {}
        own = ab.get("round_ms_per_step") or []
        rounds += own
        steps.append(step_ms(own))  # over every round, as the A/B here
        captures.append(end.get("capture_after_effect"))
        flagged.append(end.get("capture_after_effect_flagged"))
        rounds_from.append(ab.get("rounds_from"))
        if runner:
            whatifs.append(whatif(runner, folder, log))
    result = stats.analyse(rounds, ("item", "none_aa"), 2000, 1, 10)
    known = [w for w in whatifs if w is not None]
    return {"item": (result.get("estimates") or {}).get("item"), "rounds": len(rounds), "steps": steps,
            "whatif": stats.median(known) if known else None, "whatifs": whatifs, "captures": captures,
            "flagged": flagged, "rounds_from": rounds_from}


def step_check(plains, probe_steps):
    """The probe's step against the plain process's just before it, over the pairs: (pct, low, high)."""
    ratios = [b / step_ms(p["rounds"]) for p, b in zip(plains, probe_steps) if b and step_ms(p["rounds"])]
    if not ratios:
        return None
    if len(ratios) == 1:
        pct = (ratios[0] - 1) * 100
        return pct, pct, pct
    est = stats.bootstrap_interval([math.log(r) for r in ratios], 2000, 1)
    return est["pct"], est["ci_low"], est["ci_high"]


def report(out, runner):
    with open(os.path.join(out, "cells.json")) as f:
        cells = json.load(f)
    rows, summary = [], {"step": 0, "ab": 0, "whatif": 0, "capture": 0, "cells": len(cells)}
    with open(os.path.join(out, "log.txt"), "a") as log:
        for c in cells:
            plains = c.get("plains") or [c["plain"]]  # cells.json of a single pair: plain, folder
            folders = c.get("folders") or [c["folder"]]
            t = truth(plains)
            probe = probe_side(out, folders, runner, log)
            step = step_check(plains, probe["steps"])
            inside = [e is not None and e["ci_low"] <= CAPTURE_PCT and e["ci_high"] >= -CAPTURE_PCT
                      for e in probe["captures"]]
            ok = {"step": step is not None and step[1] <= STEP_PCT and step[2] >= -STEP_PCT,
                  "ab": near(probe["item"]["pct"] if probe["item"] else None, t["item"]),
                  "whatif": near(probe["whatif"], t["item"]),
                  "capture": all(inside) and bool(inside)}
            for k in ok:
                summary[k] += ok[k]
            rows.append({"cell": folders[0], "loop": c["loop"], "host_work_ms": c["host_work_ms"], "pairs": len(folders),
                         "truth": t, "probe": probe, "step": step, "ok": ok})
    print(f"{'cell':<18} {'pairs':>5} {'plain step':>10} {'probe step':>22} {'plain item tax':<24} {'probe A/B':<24} "
          f"{'what-if':>8} {'capture after-effect':<24}")
    for r in rows:
        t, ok, probe, step = r["truth"], r["ok"], r["probe"], r["step"]
        if step is None:
            step_text = "-"
        elif r["pairs"] == 1:
            step_text = "%+.1f%%" % step[0]
        else:
            step_text = "%+.1f%% [%+.1f, %+.1f]" % step
        step_text += "" if ok["step"] else " !"
        ab = text(probe["item"]) + ("" if ok["ab"] else " !")
        predicted = ("%+.1f%%" % probe["whatif"] if probe["whatif"] is not None else "-") + ("" if ok["whatif"] else " !")
        capture = "; ".join(text(e) for e in probe["captures"]) + ("" if ok["capture"] else " !")
        print(f"{r['cell']:<18} {r['pairs']:>5} {t['step_ms'] or 0:>10.3f} {step_text:>22} {text(t['item']):<24} "
              f"{ab:<24} {predicted:>8} {capture}")
    n = summary["cells"]
    print(f"step within {STEP_PCT:g}%: {summary['step']} of {n}; A/B within {TAX_PP:g} points or inside the plain "
          f"interval: {summary['ab']} of {n}; "
          + (f"what-if likewise: {summary['whatif']} of {n}; " if runner else "what-if: not run (no --runner); ")
          + f"capture after-effect "
          f"inside +-{CAPTURE_PCT:g}%: {summary['capture']} of {n}")
    with open(os.path.join(out, "validation.json"), "w") as f:
        json.dump({"rows": rows, "summary": summary}, f, indent=1)
    met = (summary["step"] == n and summary["capture"] == n and 10 * summary["ab"] >= 9 * n
           and (not runner or 10 * summary["whatif"] >= 9 * n))
    return 0 if met and n else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--runner", help="synctax-run, for the what-if of each probe folder")
    p.add_argument("--loops", default=",".join(LOOPS))
    p.add_argument("--seconds", type=float, default=6.0, help="each process's measured seconds (default 6)")
    p.add_argument("--repeats", type=int, default=1, help="pairs of processes (plain, probed) a cell (default 1)")
    p.add_argument("--cpus", type=cpu_list, help="run every process on these CPUs only (0-7, 0,2,4)")
    p.add_argument("--report", action="store_true", help="only the table, from OUT's files")
    args = p.parse_args()
    if not args.report:
        os.makedirs(args.out, exist_ok=True)
        unknown = [x for x in args.loops.split(",") if x and x not in LOOPS]
        if unknown:
            p.error(f"unknown loops: {', '.join(unknown)} (known: {', '.join(LOOPS)})")
        record(args.out, [x for x in args.loops.split(",") if x], args.seconds, max(1, args.repeats), args.cpus)
    return report(args.out, args.runner)


if __name__ == "__main__":
    sys.exit(main())
