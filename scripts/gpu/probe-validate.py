#!/usr/bin/env python3
"""The probe judged against the loop as it runs without it. For each loop of the validation set at
host work 0 and at a middle host work, two separate processes in turn: the plain script measuring
its own `loss.item()` tax (`--paired-seconds`: paired blocks none / none_aa / item, no probe
imported), then the same script under `python3 -m synctax_probe --ab item`; with --runner, the
what-if of each probe folder (`RUNNER trace DIR`). Per cell:

- step: the probe's `none` blocks (ab.json's baseline_step_ms) against the plain process's, within 3%;
- A/B and what-if: within 3 points of the plain tax, or inside its 95% interval;
- the capture's after-effect (end.json): inside +-1% (its interval reaching into it counts).

    scripts/gpu/probe-validate.py OUT [--runner build/bin/synctax-run] [--loops a,b] [--seconds S]
    scripts/gpu/probe-validate.py OUT --report [--runner ...]   # the table again, from OUT's files

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
from synctax_probe import stats  # noqa: E402  (plain statistics; the probe is not attached here)

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


def plain(loop, host, seconds, log):
    cmd = [sys.executable, script(loop), "--paired-seconds", str(seconds), "--host-work-ms", f"{host:g}"] + LOOPS[loop]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 6 + 120)
    log.write(f"$ {' '.join(cmd)}\n{run.stdout[-2000:]}{run.stderr[-3000:]}\n")
    out = last_json(run.stdout)
    if out is None:
        raise RuntimeError(f"{loop} plain: no result (exit {run.returncode})")
    return out


def probed(loop, host, seconds, step_ms, folder, log):
    """The script under the probe, long enough for its warm-up, the blocks before the capture, the
    capture and `seconds` of rounds."""
    block = math.ceil(max(20, 100.0 / step_ms))
    steps = int(300 + 8 * block + 15 + seconds * 1000 / step_ms)
    cmd = [sys.executable, "-m", "synctax_probe", "--ab", "item", "--trace-gz", "--out", folder, script(loop),
           "--steps", str(steps), "--host-work-ms", f"{host:g}"] + LOOPS[loop]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "probe") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds * 8 + 180)
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


def truth(plain_out):
    result = stats.analyse(plain_out["rounds"], ("item", "none_aa"), 2000, 1, 10)
    est = result.get("estimates") or {}
    return {"item": est.get("item"), "aa": est.get("none_aa"), "step_ms": result.get("baseline_step_ms"),
            "rounds": len(plain_out["rounds"])}


def record(out, loops, seconds):
    cells = []
    with open(os.path.join(out, "log.txt"), "a") as log:
        for loop in loops:
            hosts = [0.0]
            for host in hosts:
                name = f"{loop}-h{host:g}"
                t0 = time.time()
                p = plain(loop, host, seconds, log)
                if host == 0 and p.get("gpu_ms") is not None:
                    hosts.append(round(max(0.5, p["gpu_ms"] - p["host_own_ms"]), 1))
                t = truth(p)
                steps = probed(loop, host, seconds, t["step_ms"] or 10.0, os.path.join(out, name), log)
                cells.append({"loop": loop, "host_work_ms": host, "folder": name, "plain": p, "probe_steps": steps,
                              "gpu_ms": p.get("gpu_ms"), "host_own_ms": p.get("host_own_ms")})
                print(f"{name}: plain {t['step_ms']:.3f} ms a step, GPU {p.get('gpu_ms') or 0:.2f} ms, host's own "
                      f"{p.get('host_own_ms') or 0:.2f} ms; {time.time() - t0:.0f} s", flush=True)
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


def report(out, runner):
    with open(os.path.join(out, "cells.json")) as f:
        cells = json.load(f)
    rows, summary = [], {"step": 0, "ab": 0, "whatif": 0, "capture": 0, "cells": len(cells)}
    with open(os.path.join(out, "log.txt"), "a") as log:
        for c in cells:
            folder = os.path.join(out, c["folder"])
            t = truth(c["plain"])
            ab = read_json(os.path.join(folder, "ab.json")) or {}
            end = read_json(os.path.join(folder, "end.json")) or {}
            item = (ab.get("estimates") or {}).get("item")
            probe_ms = ab.get("baseline_step_ms")
            predicted = whatif(runner, folder, log) if runner else None
            step_pct = (probe_ms / t["step_ms"] - 1) * 100 if probe_ms and t["step_ms"] else None
            after = end.get("capture_after_effect")
            ok = {"step": step_pct is not None and abs(step_pct) <= STEP_PCT,
                  "ab": near(item["pct"] if item else None, t["item"]),
                  "whatif": near(predicted, t["item"]),
                  "capture": after is not None and after["ci_low"] <= CAPTURE_PCT and after["ci_high"] >= -CAPTURE_PCT}
            for k in ok:
                summary[k] += ok[k]
            rows.append(dict(c, truth=t, probe_ab=item, probe_step_ms=probe_ms, step_pct=step_pct, whatif=predicted,
                             capture=after, capture_flagged=end.get("capture_after_effect_flagged"),
                             rounds_from=ab.get("rounds_from"), probe_rounds=ab.get("rounds"), ok=ok))
    print(f"{'cell':<18} {'plain step':>10} {'probe step':>16} {'plain item tax':<24} {'probe A/B':<24} "
          f"{'what-if':>8} {'capture after-effect':<24}")
    for r in rows:
        t, ok = r["truth"], r["ok"]
        step = (f"{r['probe_step_ms']:.3f} {r['step_pct']:+.1f}%{'' if ok['step'] else '!'}"
                if r["step_pct"] is not None else "-")
        probe = text(r["probe_ab"]) + ("" if ok["ab"] else " !")
        predicted = ("%+.1f%%" % r["whatif"] if r["whatif"] is not None else "-") + ("" if ok["whatif"] else " !")
        capture = text(r["capture"]) + ("" if ok["capture"] else " !")
        print(f"{r['folder']:<18} {t['step_ms'] or 0:>10.3f} {step:>16} {text(t['item']):<24} {probe:<24} "
              f"{predicted:>8} {capture:<24}")
    n = summary["cells"]
    print(f"step within {STEP_PCT:g}%: {summary['step']} of {n}; A/B within {TAX_PP:g} points or inside the plain "
          f"interval: {summary['ab']} of {n}; what-if likewise: {summary['whatif']} of {n}; capture after-effect "
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
    p.add_argument("--report", action="store_true", help="only the table, from OUT's files")
    args = p.parse_args()
    if not args.report:
        os.makedirs(args.out, exist_ok=True)
        unknown = [x for x in args.loops.split(",") if x and x not in LOOPS]
        if unknown:
            p.error(f"unknown loops: {', '.join(unknown)} (known: {', '.join(LOOPS)})")
        record(args.out, [x for x in args.loops.split(",") if x], args.seconds)
    return report(args.out, args.runner)


if __name__ == "__main__":
    sys.exit(main())
