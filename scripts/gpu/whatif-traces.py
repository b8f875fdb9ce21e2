#!/usr/bin/env python3
"""On a GPU machine: the what-if of `synctax-run trace` against unprofiled measurements of the same
Python loops (scripts/gpu/validate.sh --only python runs both parts, one after the other).

record: for each model of scripts/record-traces.py, in one fresh process: first the unprofiled,
interleaved paired measurement of `item` against `none` (host work 0 and a middle-regime host
work), the unprofiled host time of one step from an idle GPU, and a Python .item()'s own cost on an
idle GPU; then traces of the same loops (none and item, host work 0) recorded with torch.profiler.
Writes OUT/whatif.json and the traces under OUT/<model>-<syncs>/; with --recordings N, N recordings
of each, the later ones under OUT/<model>-<syncs>-<k>/, to see how far two recordings of one loop
differ. Each model's entry also holds the host time of its `none` loop's phases (zero_grad,
forward, backward, optimizer) without the profiler, in the steady loop (`phases_us`), and
`phases_idle_us`, `phases_steady_us` and `phases_item_us`: the phases timed from an idle GPU, in
the steady loop and in the loop with `item`, each as blocks interleaved with the paired measurement
at host work 0, so that they drift with the blocks they are compared to (the median over its rounds
of each block's median step; `_mean_us`: the mean over every step). With --no-stack-too, each loop
is also recorded once without Python stacks (OUT/<model>-<syncs>-nostack/).

compare: for each model of a `record` folder (whatif.json and the traces), each recording of its
`none` trace predicts the `item` tax and each recording of its `item` trace the saving of its own
syncs (its as_recorded row against none), both with the loop's unprofiled step time as --step-ms;
then the same at the model's middle-regime host work (--host-work-us, before the sync, where the
loop does it), against the paired measurement at that host work. WHATIF_DIR: what `record` wrote,
or tests/data/traces/torch-2.11-h200/whatif. Needs no torch.

    python3 scripts/gpu/whatif-traces.py record OUT [--recordings N] [--no-stack-too] [MODEL...]
    python3 scripts/gpu/whatif-traces.py compare WHATIF_DIR [SYNCTAX_RUN] [--json OUT.json] [--no-step-ms]
                                                 [--phases KEY] [--spread BLOCKS] [--sync-us US]

--no-step-ms: from the traces alone (the profiler's default cost per event taken out).

--phases KEY: with --phases-ms from each model's entry KEY of whatif.json (phases_idle_mean_us:
the phases timed from an idle GPU, mean over every step) in place of --step-ms.

--spread BLOCKS: with --phases, also --phases-file from each of the model's blocks at host work 0
(paired_host0.extra[BLOCKS], each block's median phases: phases_idle for the idle blocks), so that
the what-if replays the host's spread from block to block.

--sync-us US: what one read-back costs, passed on as `synctax-run trace --sync-us` (without it, the
what-if's own default).
"""
import argparse
import glob
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
torch = F = rt = None  # `record`'s alone (_load_torch): `compare` runs where there is no torch


def _load_torch():
    """torch, and the loops and their recording, which are scripts/record-traces.py's (its name has
    a dash: loaded by path)."""
    global torch, F, rt
    import torch
    import torch.nn.functional as F
    spec = importlib.util.spec_from_file_location("record_traces", os.path.join(SCRIPTS, "record-traces.py"))
    rt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rt)

PHASES = ("zero_grad", "forward", "backward", "optimizer", "item")

# Host work per step at which each loop's host time comes close to its GPU time (unprofiled).
MIDDLE_HOST_MS = {"tiny_mlp": 1.0, "small_resnet": 4.0, "resnet50": 15.0}
# The paired measurement at host work 0 (the one each trace's what-if is held to within 3 points):
# after its 30 rounds with the phases, more rounds until item's interval is within +-1.5 points or
# 110 s have passed. At 30 rounds small_resnet's interval was 7 to 10 points wide on the H200.
HOST0_CI_PP, HOST0_BUDGET_S = 1.5, 110


def timed_step(loop, sync_before, item):
    """One step of loop, timed phase by phase on the host (us)."""
    if sync_before:
        torch.cuda.synchronize()
    t = [time.perf_counter_ns()]
    loop.opt.zero_grad(set_to_none=True)
    t.append(time.perf_counter_ns())
    loss = F.cross_entropy(loop.net(loop.x), loop.y)
    t.append(time.perf_counter_ns())
    loss.backward()
    t.append(time.perf_counter_ns())
    loop.opt.step()
    t.append(time.perf_counter_ns())
    if item:
        loss.item()
    t.append(time.perf_counter_ns())
    return [(b - a) * 1e-3 for a, b in zip(t, t[1:])]


def phase_times(loop, steps, sync_before, item):
    """The loop's phases over `steps` steps: each phase's median and mean, and every step's."""
    rows = [timed_step(loop, sync_before, item) for _ in range(steps)]
    torch.cuda.synchronize()
    median = {p: statistics.median(r[i] for r in rows) for i, p in enumerate(PHASES)}
    median["step"] = statistics.median(sum(r) for r in rows)
    mean = {p: statistics.fmean(r[i] for r in rows) for i, p in enumerate(PHASES)}
    mean["step"] = statistics.fmean(sum(r) for r in rows)
    return {"steps": steps, "median_us": median, "mean_us": mean, "per_step_us": rows}


def dispatch_from_idle_ms(loop, steps=21):
    times = []
    for _ in range(steps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loop.step()
        times.append((time.perf_counter() - t0) * 1000.0)
    torch.cuda.synchronize()
    return statistics.median(times)


def item_cost_us(calls=201):
    x = torch.ones((), device="cuda")
    times = []
    for _ in range(calls):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        x.item()
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def phase_block(sync_before, item):
    """A block of measure_paired's `extra`: the loop's phases timed over the block's steps."""
    return lambda loop, steps: phase_times(loop, steps, sync_before, item)


def record(out, recordings, no_stack_too, models):
    _load_torch()
    models = models or ["tiny_mlp", "small_resnet", "resnet50"]
    os.makedirs(out, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    results = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "models": []}
    for model in models:
        entry = {"model": model, "middle_host_ms": MIDDLE_HOST_MS[model]}
        phase_blocks = {"phases_idle": phase_block(True, False), "phases_steady": phase_block(False, False),
                        "phases_item": phase_block(False, True)}
        entry["paired_host0"] = rt.measure_paired(model, 0.0, rounds=30, extra=phase_blocks,
                                                  until_ci_pp=HOST0_CI_PP, budget_s=HOST0_BUDGET_S)
        for name, per_round in entry["paired_host0"]["extra"].items():
            for r in per_round:
                del r["per_step_us"]
            phases = per_round[0]["median_us"]
            entry[f"{name}_us"] = {p: statistics.median(r["median_us"][p] for r in per_round) for p in phases}
            entry[f"{name}_mean_us"] = {p: statistics.fmean(r["mean_us"][p] for r in per_round) for p in phases}
            for how in ("", "_mean"):
                print(f"{model} {name}{how}: " + ", ".join(f"{p} {v / 1000:.3f}" for p, v in
                                                         entry[f"{name}{how}_us"].items()), flush=True)
        entry["paired_middle"] = rt.measure_paired(model, MIDDLE_HOST_MS[model], rounds=24)
        loop = rt.Loop(model, "none", 0.0)
        rt.mean_step_ms(loop, 10)
        entry["dispatch_from_idle_ms"] = dispatch_from_idle_ms(loop)
        entry["item_cost_us"] = item_cost_us()
        steady = phase_times(loop, 40 if model != "tiny_mlp" else 200, False, False)
        entry["phases_us"] = steady["median_us"]
        entry["traces"] = [rt.record(out, f"{model}-{syncs}" + (f"-{k + 1}" if k else ""), model, syncs, active=5)
                           for k in range(recordings) for syncs in ("none", "item")]
        if no_stack_too:
            entry["traces"] += [rt.record(out, f"{model}-{syncs}-nostack", model, syncs, active=5, stack=False)
                                for syncs in ("none", "item")]
        print(f"{model}: dispatch from idle {entry['dispatch_from_idle_ms']:.3f} ms, python item {entry['item_cost_us']:.1f} us",
              flush=True)
        results["models"].append(entry)
        with open(os.path.join(out, "whatif.json"), "w") as f:
            json.dump(results, f, indent=1)


def phases_ms(phases_us):
    """`record`'s phases as --phases-ms takes them: forward (zero_grad in it), backward,
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


def compare(folder, binary, json_out, with_step, phases_key, spread_key, sync_us):
    binary = binary or os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "synctax-run")
    # A `record` folder, or the committed set (tests/data/traces/torch-2.11-h200/whatif, its
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


def main():
    p = argparse.ArgumentParser(description="The what-if of synctax-run trace against unprofiled measurements "
                                "of the same Python loops: record them, then compare.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record", help="measure the loops unprofiled, then record their traces")
    r.add_argument("out", metavar="OUT")
    r.add_argument("--recordings", type=int, default=1, metavar="N")
    r.add_argument("--no-stack-too", action="store_true")
    r.add_argument("models", nargs="*", metavar="MODEL")
    c = sub.add_parser("compare", help="the what-if of each recording against its measurement")
    c.add_argument("folder", metavar="WHATIF_DIR")
    c.add_argument("binary", nargs="?", metavar="SYNCTAX_RUN")
    c.add_argument("--json", metavar="OUT.json")
    c.add_argument("--no-step-ms", action="store_true")
    c.add_argument("--phases", metavar="KEY")
    c.add_argument("--spread", metavar="BLOCKS")
    c.add_argument("--sync-us", type=float, metavar="US")
    a = p.parse_args()
    if a.command == "record":
        record(a.out, a.recordings, a.no_stack_too, a.models)
    else:
        compare(a.folder, a.binary, a.json, not a.no_step_ms, a.phases, a.spread, a.sync_us)


if __name__ == "__main__":
    main()
