#!/usr/bin/env python3
"""Writes a probe run folder again, at the pace it was written, for a reader that follows a folder
while it grows (the app's live view, its tests, load tests).

replay-probe-run.py SRC DST               re-write the finished folder SRC into DST
replay-probe-run.py --synthetic-steps N --steps-per-s R [SRC] DST
                                          a synthetic run of N steps (SRC, if given, is ignored)

probe.json comes first (its pid and hostname are this process's, so that a reader sees the job
alive while it runs and gone after it), then each steps.jsonl line at its t_ns, each blocks.jsonl
line when its block has ended (t_ms + steps * ms_per_step) with its phases.csv row, sites.json
every 5 s of the run, the trace when the profiled capture ended (the first step of stage settle or
block), and ab.json, probe.json and end.json at the end. Lines are appended and flushed one by one;
the JSON files are written whole (a temporary file renamed over the name), as the probe writes
them. Exit 0 when done, 1 after --crash-at-step, 2 on bad input.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import socket
import statistics
import sys
import time
from typing import Callable, List, Optional, Tuple

PROBE, STEPS, BLOCKS, PHASES = "probe.json", "steps.jsonl", "blocks.jsonl", "phases.csv"
SITES, AB, END = "sites.json", "ab.json", "end.json"
TRACES = ("trace.pt.trace.json.gz", "trace.pt.trace.json")
PHASES_HEADER = "forward,backward,optimizer"
SITES_EVERY_S = 5.0

Event = Tuple[float, int, Callable[[], None]]  # (run time in s, order among equal times, action)


class BadInput(Exception):
    pass


def write_whole(folder: str, name: str, text: str) -> None:
    path = os.path.join(folder, name)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def copy_whole(src: str, folder: str, name: str) -> None:
    path = os.path.join(folder, name)
    shutil.copyfile(src, path + ".tmp")
    os.replace(path + ".tmp", path)


def dump(obj) -> str:
    return json.dumps(obj, indent=1) + "\n"


class Appender:
    """The run folder's append-only files, each opened once and flushed after every write."""

    def __init__(self, folder: str):
        self.folder = folder
        self.files = {}

    def open(self, name: str, head: str = "") -> None:
        f = open(os.path.join(self.folder, name), "w", encoding="utf-8")
        f.write(head)
        f.flush()
        self.files[name] = f

    def write(self, name: str, text: str) -> None:
        f = self.files[name]
        f.write(text)
        f.flush()

    def close(self) -> None:
        for f in self.files.values():
            f.close()


def prepare(dst: str) -> None:
    """Makes DST and clears what a former run left there, as the probe does."""
    try:
        os.makedirs(dst, exist_ok=True)
        for name in (PROBE, STEPS, BLOCKS, PHASES, SITES, AB, END) + TRACES:
            if os.path.isfile(os.path.join(dst, name)):
                os.remove(os.path.join(dst, name))
    except OSError as e:
        raise BadInput(f"cannot write the folder '{dst}': {e.strerror or e}") from None


def read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput(f"{path}: cannot be read as JSON: {e}") from None


def read_lines(path: str) -> List[str]:
    """The file's complete lines, each with its newline; none when the file is absent."""
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line for line in f if line.endswith("\n")]


def own_probe_json(probe: dict) -> dict:
    return dict(probe, pid=os.getpid(), hostname=socket.gethostname())


def replay_events(src: str, dst: str, out: Appender) -> Tuple[List[Event], List[str]]:
    """The events that write SRC's files into DST, and SRC's step lines (for --crash-at-step)."""
    if not os.path.isfile(os.path.join(src, PROBE)):
        raise BadInput(f"'{src}' is not a probe run folder (no {PROBE})")
    probe = own_probe_json(read_json(os.path.join(src, PROBE)))
    steps = read_lines(os.path.join(src, STEPS))
    blocks = read_lines(os.path.join(src, BLOCKS))
    phase_lines = read_lines(os.path.join(src, PHASES))
    head_end = next((i + 1 for i, line in enumerate(phase_lines) if line.strip() == PHASES_HEADER), 0)
    phases_head, phase_rows = "".join(phase_lines[:head_end]), phase_lines[head_end:]
    events: List[Event] = []
    order = iter(range(1 << 62))

    def at(t: float, action: Callable[[], None]) -> None:
        events.append((t, next(order), action))

    def start() -> None:
        write_whole(dst, PROBE, dump(probe))
        out.open(STEPS)
        out.open(BLOCKS)
        out.open(PHASES, phases_head)

    at(0.0, start)
    capture_end: Optional[float] = None
    for i, line in enumerate(steps):
        try:
            record = json.loads(line)
            t = record["t_ns"] * 1e-9
        except (ValueError, KeyError, TypeError):
            raise BadInput(f"{os.path.join(src, STEPS)}:{i + 1}: not a step line as the probe writes it") from None
        at(t, lambda line=line: out.write(STEPS, line))
        if capture_end is None and record.get("stage") in ("settle", "block"):
            capture_end = t
    rows = iter(phase_rows)
    end_s = steps and json.loads(steps[-1])["t_ns"] * 1e-9 or 0.0
    for i, line in enumerate(blocks):
        try:
            record = json.loads(line)
            t = (record["t_ms"] + record["steps"] * record["ms_per_step"]) * 1e-3
        except (ValueError, KeyError, TypeError):
            raise BadInput(f"{os.path.join(src, BLOCKS)}:{i + 1}: not a block line as the probe writes it") from None
        row = next(rows, "") if record.get("style") == "calib" else ""
        at(t, lambda line=line, row=row: (out.write(BLOCKS, line), row and out.write(PHASES, row)))
        end_s = max(end_s, t)
        if capture_end is None or record["t_ms"] * 1e-3 < capture_end:
            capture_end = record["t_ms"] * 1e-3
    left = "".join(rows)
    trace = next((name for name in TRACES if os.path.isfile(os.path.join(src, name))), None)
    if trace:
        at(capture_end or 0.0, lambda: copy_whole(os.path.join(src, trace), dst, trace))
    sites_path = os.path.join(src, SITES)
    if os.path.isfile(sites_path):
        sites = read_json(sites_path)
        for k in range(1, int(end_s / SITES_EVERY_S) + 1):
            at(k * SITES_EVERY_S, lambda: write_whole(dst, SITES, dump(sites)))
    end = read_json(os.path.join(src, END)) if os.path.isfile(os.path.join(src, END)) else None
    ab = read_json(os.path.join(src, AB)) if os.path.isfile(os.path.join(src, AB)) else None

    def finish() -> None:
        if left:
            out.write(PHASES, left)
        if os.path.isfile(sites_path):
            copy_whole(sites_path, dst, SITES)
        if ab is not None:
            write_whole(dst, AB, dump(ab))
        write_whole(dst, PROBE, dump(probe))
        if end is not None:
            write_whole(dst, END, dump(end))

    at(end_s, finish)
    return events, steps


def geomean(values: List[float]) -> float:
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def synthetic_ab(rounds: List[dict], seed: int) -> dict:
    """ab.json as the probe computes it (geometric mean of paired ratios, bootstrap 95%), short."""
    if len(rounds) < 2:
        return {"format_version": 1, "ab": "item", "rounds": len(rounds), "estimates": None,
                "reason": f"{len(rounds)} complete round(s); at least 2 are needed for an interval"}
    estimates = {}
    for i, style in enumerate(("item", "none_aa", "calib")):
        logs = [math.log(r[style] / r["none"]) for r in rounds]
        n = len(logs)
        rng = random.Random(seed + i)
        boot = sorted(math.fsum(rng.choices(logs, k=n)) / n for _ in range(2000))
        pct = lambda x: (math.exp(x) - 1.0) * 100.0
        est = {"pct": pct(math.fsum(logs) / n), "ci_low": pct(boot[49]), "ci_high": pct(boot[1949]),
               "step_ms": geomean([r[style] for r in rounds])}
        est["text"] = "%+.1f%% [%+.1f, %+.1f]" % (est["pct"], est["ci_low"], est["ci_high"])
        estimates[style] = est
    return {"format_version": 1, "ab": "item", "seed": seed, "resamples": 2000, "block_steps": 20,
            "baseline": "none", "control": "none_aa", "rounds": len(rounds), "estimates": estimates,
            "round_ms_per_step": rounds}


def synthetic_events(n: int, rate: float, dst: str, out: Appender) -> Tuple[List[Event], List[str]]:
    """N steps at R steps/s: warm-up 30, the capture 5, settling 10, then blocks of 20 in rounds of
    none, none_aa, item, calib (in a seeded order per round); item's steps 5% slower."""
    warmup, profile, settle, block_steps = 30, 5, 10, 20
    styles = ("none", "none_aa", "item", "calib")
    rng = random.Random(1)
    step_s = 1.0 / rate
    probe = own_probe_json({
        "format_version": 1, "probe_version": "synthetic", "mode": "command", "script": "synthetic.py",
        "argv": ["synthetic.py"], "cwd": os.getcwd(), "torch": None, "cuda_available": False,
        "cuda_version": None, "cuda_device": None, "python": sys.version.split()[0], "executable": sys.executable,
        "rank": None, "world_size": None, "start_time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "start_unix": time.time(),
        "options": {"ab": "item", "block_steps": block_steps, "warmup_steps": warmup, "warmup_max_steps": 300,
                    "profile_steps": profile, "settle_steps": settle, "seed": 1, "bootstrap": 2000,
                    "window_rounds": 10, "queue_size": 65536, "trace_gz": False, "quiet": True}})
    events: List[Event] = []
    order = iter(range(1 << 62))

    def at(t: float, action: Callable[[], None]) -> None:
        events.append((t, next(order), action))

    head = ("# synctax_probe phases: one line per calibration block of 20 steps, unprofiled (synthetic)\n"
            + PHASES_HEADER + "\n")
    at(0.0, lambda: (write_whole(dst, PROBE, dump(probe)), out.open(STEPS), out.open(BLOCKS), out.open(PHASES, head)))
    lines: List[str] = []
    rounds: List[dict] = []
    partial: dict = {}
    order_now: List[str] = []
    block = -1
    block_start = 0.0
    blocks = 0
    t = 0.0
    own = []  # each block's probe_ms
    for i in range(n):
        first_block_step = i - warmup - profile - settle
        stage = ("warmup" if i < warmup else "profile" if i < warmup + profile
                 else "settle" if first_block_step < 0 else "block")
        style = rnd = blk = None
        if stage == "block":
            blk = first_block_step // block_steps
            rnd = blk // len(styles)
            if blk != block:
                if blk % len(styles) == 0:
                    order_now = list(styles)
                    rng.shuffle(order_now)
                block, block_start = blk, t
            style = order_now[blk % len(styles)]
        base = step_s * 1e3 * (0.99 + 0.02 * rng.random())
        ms = base * (1.05 if style == "item" else 1.0)  # the added item: 5% more
        # 1% of the step is the probe's own, after the optimizer's step: the records say it so.
        f, b, o = int(base * 0.39e6), int(base * 0.45e6), int(base * 0.15e6)
        x = int((ms - base) * 1e6)
        if stage == "block":
            if first_block_step % block_steps == 0:
                gaps = []
            if first_block_step % block_steps < block_steps - 1:
                gaps.append((int((t + ms * 1e-3) * 1e9) - (int(t * 1e9) + f + b + o + x)) * 1e-6)
        line = ('{"step":%d,"stage":"%s","block":%s,"round":%s,"style":%s,"t_ns":%d,"f_ns":%d,"b_ns":%d,'
                '"o_ns":%d,"x_ns":%d,"waits_ns":[0,0,0],"syncs":[],"gpu_ms":null}\n'
                % (i, stage, "null" if blk is None else blk, "null" if rnd is None else rnd,
                   "null" if style is None else '"%s"' % style, int(t * 1e9), f, b, o, x))
        lines.append(line)
        at(t, lambda line=line: out.write(STEPS, line))
        if stage == "settle" and i == warmup + profile:
            trace = {"schemaVersion": 1, "traceEvents": [
                {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % k, "pid": 1, "tid": 1,
                 "ts": k * step_s * 1e6, "dur": step_s * 1e6} for k in range(warmup, warmup + profile)]}
            at(t, lambda text=json.dumps(trace): write_whole(dst, TRACES[1], text + "\n"))
        t += ms * 1e-3
        last_of_block = stage == "block" and (first_block_step + 1) % block_steps == 0
        if last_of_block:
            per_step = (t - block_start) * 1e3 / block_steps
            base_step = per_step / 1.05 if style == "item" else per_step
            record = {"block": blk, "round": rnd, "style": style, "t_ms": round(block_start * 1e3, 6),
                      "steps": block_steps, "ms_per_step": round(per_step, 6), "f_ms": round(base_step * 0.39, 6),
                      "b_ms": round(base_step * 0.45, 6), "o_ms": round(base_step * 0.15, 6), "f_wait_ms": 0.0,
                      "b_wait_ms": 0.0, "o_wait_ms": 0.0, "syncs_per_step": 1.0 if style == "item" else 0.0,
                      "added_item_ms_per_step": round(per_step - base_step, 6), "drain_ms": 0.0,
                      "gpu_ms_median": None, "gpu_steps": 0,
                      "probe_ms": round(statistics.median(gaps), 6) if gaps else None}
            row = "%.4f,%.4f,%.4f\n" % (record["f_ms"], record["b_ms"], record["o_ms"]) if style == "calib" else ""
            if record["probe_ms"] is not None:
                own.append(record["probe_ms"])
            text = json.dumps(record, separators=(",", ":")) + "\n"
            at(t, lambda text=text, row=row: (out.write(BLOCKS, text), row and out.write(PHASES, row)))
            blocks += 1
            partial.setdefault(rnd, {})[style] = per_step
            if len(partial[rnd]) == len(styles):
                rounds.append(partial.pop(rnd))
    sites = {"format_version": 1, "sites": [
        {"id": 0, "op": "item", "file": "synthetic.py", "line": 1, "function": "train", "count": 20 * len(rounds),
         "total_wait_ms": 0.05 * 20 * len(rounds), "median_wait_us": 50.0, "max_wait_us": 80.0}]}
    for k in range(1, int(t / SITES_EVERY_S) + 1):
        at(k * SITES_EVERY_S, lambda: write_whole(dst, SITES, dump(sites)))
    end = {"format_version": 1, "exit_code": 0, "exception": None, "interrupted": False, "signal": None,
           "steps": n, "steps_found": n > 0, "message": f"{n} steps", "steps_written": n, "steps_dropped": 0,
           "queue_size": 65536, "warmup_steps": min(n, warmup), "warmup_settled": True,
           "profiled_steps": max(0, min(n - warmup, profile)), "trace": TRACES[1] if n > warmup + profile else None,
           "trace_error": None, "blocks": blocks, "calibration_blocks": len(rounds), "rounds": len(rounds),
           "unfinished_block": None, "gpu_timed": False, "gpu_from_step": None, "gpu_steps_missed": 0,
           "cuda_device": None, "syncs": 20 * len(rounds), "syncs_unlisted": 0, "other_optimizer_steps": 0,
           "probe_us_per_step": round(statistics.median(own) * 1e3, 3) if own else None,
           "writer_us_per_step": round(0.005 * step_s * 1e6, 3),  # its writer: half a percent of a step
           "duration_s": t, "end_time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "write_errors": []}
    at(t, lambda: (write_whole(dst, SITES, dump(sites)), write_whole(dst, AB, dump(synthetic_ab(rounds, 1))),
                   write_whole(dst, PROBE, dump(probe)), write_whole(dst, END, dump(end))))
    return events, lines


def play(events: List[Event], speed: float, crash_at: Optional[Tuple[float, Callable[[], None]]]) -> None:
    """Runs each event at its time over `speed`; with crash_at, stops at that time after its action."""
    events.sort(key=lambda e: (e[0], e[1]))
    start = time.monotonic()
    for t, _, action in events:
        if crash_at is not None and t >= crash_at[0]:
            break
        wait = t / speed - (time.monotonic() - start)
        if wait > 0:
            time.sleep(wait)
        action()
    if crash_at is not None:
        wait = crash_at[0] / speed - (time.monotonic() - start)
        if wait > 0:
            time.sleep(wait)
        crash_at[1]()


def main(argv: List[str]) -> int:
    usage = ("%(prog)s [--speed X] [--crash-at-step N] SRC DST\n"
             "       %(prog)s --synthetic-steps N --steps-per-s R [--speed X] [--crash-at-step N] [SRC] DST")
    p = argparse.ArgumentParser(prog="replay-probe-run.py", usage=usage, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="SRC DST", help="the finished folder, the folder to write")
    p.add_argument("--speed", type=float, default=1.0, metavar="X", help="X times the recorded pace (default 1)")
    p.add_argument("--crash-at-step", type=int, metavar="N",
                   help="stop after half of step N's line (no newline, no end.json) and exit 1")
    p.add_argument("--synthetic-steps", type=int, metavar="N", help="write a synthetic run of N steps")
    p.add_argument("--steps-per-s", type=float, metavar="R", help="the synthetic run's pace")
    ns = p.parse_args(argv)
    try:
        if not (ns.speed > 0 and math.isfinite(ns.speed)):
            raise BadInput(f"--speed must be above 0, not {ns.speed}")
        synthetic = ns.synthetic_steps is not None
        if synthetic != (ns.steps_per_s is not None):
            raise BadInput("--synthetic-steps and --steps-per-s go together")
        if synthetic and (ns.synthetic_steps < 1 or not (ns.steps_per_s > 0 and math.isfinite(ns.steps_per_s))):
            raise BadInput("--synthetic-steps needs N >= 1 and --steps-per-s R > 0")
        if len(ns.paths) > 2 or (not synthetic and len(ns.paths) != 2):
            raise BadInput("expected SRC DST" + (" (or DST alone with --synthetic-steps)" if not synthetic else ""))
        if ns.crash_at_step is not None and ns.crash_at_step < 0:
            raise BadInput(f"--crash-at-step must be 0 or more, not {ns.crash_at_step}")
        dst = ns.paths[-1]
        src = None if synthetic else ns.paths[0]
        if src is not None and os.path.abspath(src) == os.path.abspath(dst):
            raise BadInput("SRC and DST are the same folder")
        if src is not None and not os.path.isdir(src):
            raise BadInput(f"'{src}' is not a folder")
        out = Appender(dst)
        if synthetic:
            prepare(dst)
            events, lines = synthetic_events(ns.synthetic_steps, ns.steps_per_s, dst, out)
        else:
            events, lines = replay_events(src, dst, out)
            prepare(dst)
        crash_at = None
        if ns.crash_at_step is not None:
            if ns.crash_at_step >= len(lines):
                raise BadInput(f"--crash-at-step {ns.crash_at_step}: the run has {len(lines)} step lines")
            line = lines[ns.crash_at_step]
            t = json.loads(line)["t_ns"] * 1e-9
            crash_at = (t, lambda: out.write(STEPS, line[:len(line) // 2]))
    except BadInput as e:
        print(f"replay-probe-run.py: {e}", file=sys.stderr)
        return 2
    try:
        play(events, ns.speed, crash_at)
    except OSError as e:
        print(f"replay-probe-run.py: cannot write '{dst}': {e.strerror or e}", file=sys.stderr)
        return 2
    finally:
        out.close()
    return 1 if crash_at is not None else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
