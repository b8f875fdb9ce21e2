#!/usr/bin/env python3
"""The what-if of `synctax-run trace` against the unprofiled measurements of the same Python loops:
for each model of a scripts/gpu/whatif-traces.py folder (whatif.json and the traces), each recording
of its `none` trace predicts the `item` tax and each recording of its `item` trace the saving of
its own syncs (its as_recorded row against none), both with the loop's unprofiled step time as
--step-ms; then the same at the model's middle-regime host work (--host-work-us, before the
sync, where the loop does it), against the paired measurement at that host work.

    python3 scripts/gpu/whatif-compare.py WHATIF_DIR [SYNCTAX_RUN] [--json OUT.json] [--no-step-ms]
                                          [--phases KEY] [--spread BLOCKS] [--sync-us US]

WHATIF_DIR: what whatif-traces.py wrote, or tests/data/traces/torch-2.11-h200/whatif.

--no-step-ms: from the traces alone (the profiler's default cost per event taken out).

--phases KEY: with --phases-ms from each model's entry KEY of whatif.json (phases_idle_mean_us:
the phases timed from an idle GPU, mean over every step) in place of --step-ms.

--spread BLOCKS: with --phases, also --phases-file from each of the model's blocks at host work 0
(paired_host0.extra[BLOCKS], each block's median phases: phases_idle for the idle blocks), so that
the what-if replays the host's spread from block to block.

--sync-us US: what one read-back costs, passed on as `synctax-run trace --sync-us` (without it, the
what-if's own default).
"""
import glob
import json
import os
import subprocess
import sys
import tempfile


def phases_ms(phases_us):
    """whatif-traces.py's phases as --phases-ms takes them: forward (zero_grad in it), backward,
    optimizer."""
    return ",".join(f"{v / 1000:.4f}" for v in (phases_us["zero_grad"] + phases_us["forward"],
                                                 phases_us["backward"], phases_us["optimizer"]))


def predict(binary, trace, step_ms, host_work_us, phases=None, sync_us=None, blocks=None):
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "trace", trace, "--out", out] + (["--step-ms", f"{step_ms:.4f}"] if step_ms else [])
        if blocks:
            path = os.path.join(out, "phases.csv")
            with open(path, "w") as f:
                f.write("forward,backward,optimizer\n")
                f.writelines(phases_ms(b["median_us"]) + "\n" for b in blocks)
            cmd += ["--phases-file", path]
        if sync_us is not None:
            cmd += ["--sync-us", f"{sync_us:g}"]
        if phases:
            cmd += ["--phases-ms", phases]
        if host_work_us:
            cmd += ["--host-work-us", str(int(host_work_us)), "--host-work-at", "before-sync"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(out, "trace-summary.json")) as f:
            summary = json.load(f)
    return {r["style"]: r for r in summary["whatif"]["rows"]}


def main():
    args = sys.argv[1:]
    json_out, phases_key, sync_us, spread_key = None, None, None, None
    if "--spread" in args:
        at = args.index("--spread")
        spread_key = args[at + 1]
        del args[at:at + 2]
    if "--sync-us" in args:
        at = args.index("--sync-us")
        sync_us = float(args[at + 1])
        del args[at:at + 2]
    if "--phases" in args:
        at = args.index("--phases")
        phases_key = args[at + 1]
        del args[at:at + 2]
    with_step = "--no-step-ms" not in args
    if not with_step:
        args.remove("--no-step-ms")
    if "--json" in args:
        at = args.index("--json")
        json_out = args[at + 1]
        del args[at:at + 2]
    folder = args[0]
    binary = args[1] if len(args) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "synctax-run")
    # A whatif-traces.py folder, or the committed set (tests/data/traces/torch-2.11-h200/whatif, its
    # measurements beside it and each trace as NAME.pt.trace.json.gz).
    measurements = os.path.join(folder, "whatif.json")
    for beside in (os.path.join(folder, "measurements"), os.path.join(folder, "..", "measurements")):
        if not os.path.exists(measurements):
            measurements = os.path.join(beside, "whatif.json")
    with open(measurements) as f:
        measured = json.load(f)
    lines, rows = [], []
    for entry in measured["models"]:
        model = entry["model"]
        for regime, paired, host_us in (("host 0", entry["paired_host0"], 0),
                                         (f"host {entry['middle_host_ms']:g} ms", entry["paired_middle"],
                                          entry["middle_host_ms"] * 1000)):
            base = entry["paired_host0"]
            for trace in entry["traces"]:
                path = glob.glob(os.path.join(folder, trace["name"], "*.json*")) or \
                    glob.glob(os.path.join(folder, trace["name"] + ".pt.trace.json*"))
                if not path:
                    continue
                step_ms = base["none_ms"] if trace["syncs"] == "none" else base["item_ms"]
                phases = phases_ms(entry[phases_key]) if phases_key else None
                blocks = entry["paired_host0"]["extra"][spread_key] if spread_key else None
                predicted = predict(binary, path[0], step_ms if with_step and not phases else None, host_us, phases,
                                    sync_us, blocks)
                style = "item" if trace["syncs"] == "none" else "as_recorded"
                tax = predicted[style]["tax_pct"]
                m = paired["item"]
                diff = tax - m["pct"]
                rows.append({"model": model, "host_ms": host_us / 1000, "trace": trace["name"], "predicts": style,
                             "step_ms": step_ms, "predicted_pct": tax, "measured_pct": m["pct"],
                             "measured_ci": [m["ci_low"], m["ci_high"]], "diff_pp": diff})
                lines.append(f"{model:13s} {regime:11s} {trace['name']:20s} {style:11s} {tax:+6.1f}%   "
                             f"{m['pct']:+6.1f}% [{m['ci_low']:+5.1f}, {m['ci_high']:+5.1f}]  {diff:+5.1f}"
                             f"{'' if abs(diff) <= 3 else '  (over 3)'}")
    print(f"{'model':13s} {'regime':11s} {'trace':20s} {'predicts':11s} predicted  measured [95% CI]  "
          f"diff pp")
    print("\n".join(lines))
    worst = max(rows, key=lambda r: abs(r["diff_pp"]))
    print(f"largest |predicted - measured|: {abs(worst['diff_pp']):.1f} pp ({worst['trace']}, host {worst['host_ms']:g} ms)")
    print(f"within 3 points: {sum(abs(r['diff_pp']) <= 3 for r in rows)} of {len(rows)}")
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
