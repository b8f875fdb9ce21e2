#!/usr/bin/env python3
"""A run folder in a few lines: the end record, the A/B and its windows, the sync sites, GPU step
times, the first blocks and phases.    python3 bench/probe/show_run.py DIR"""
import json
import os
import sys

d = sys.argv[1]
end = json.load(open(os.path.join(d, "end.json")))
KEYS = ("exit_code", "steps", "steps_dropped", "warmup_steps", "warmup_settled", "profiled_steps", "trace",
        "trace_error", "blocks", "calibration_blocks", "rounds", "gpu_timed", "gpu_from_step", "gpu_steps_missed",
        "cuda_device", "syncs", "write_errors")
print("END", {k: end[k] for k in KEYS})
if os.path.exists(os.path.join(d, "ab.json")):
    ab = json.load(open(os.path.join(d, "ab.json")))
    est = ab.get("estimates") or {}
    print("AB", {k: v.get("text") for k, v in est.items()}, "drift", ab.get("drift"),
          "base", ab.get("baseline_step_ms"))
    for w in ab.get("windows", []):
        print("  window", w["first_round"], w["rounds"], round(w["item"]["pct"], 2), round(w["baseline_step_ms"], 3))
for s in json.load(open(os.path.join(d, "sites.json")))["sites"]:
    print("SITE", s["op"], os.path.basename(s["file"]), s["line"], s["count"], s["median_wait_us"])
steps = [json.loads(l) for l in open(os.path.join(d, "steps.jsonl"))]
g = [s["gpu_ms"] for s in steps if s["gpu_ms"] is not None]
print("STEPS", len(steps), "gpu known", len(g), "gpu median", sorted(g)[len(g)//2] if g else None)
for s in steps[200:203]: print(" ", s)
blocks = [json.loads(l) for l in open(os.path.join(d, "blocks.jsonl"))]
for b in blocks[:5]: print("BLOCK", b)
print(open(os.path.join(d, "phases.csv")).read()[:600])
t = [f for f in os.listdir(d) if f.startswith("trace")]
print("TRACE", t, [os.path.getsize(os.path.join(d, f)) for f in t])
