"""What the run folder says: the phases file's head, and the files written at the
end (sites.json, ab.json, end.json, probe.json completed)."""
from __future__ import annotations

import os
import sys
import time
from typing import Any, Dict, Optional

from . import stats
from .options import Options
from .runfolder import AB, END, FORMAT_VERSION, PROBE, SITES, finite, write_json

_AB_COMPARED = ("item", stats.CONTROL, "calib")


def phases_header(options: Options) -> str:
    size = (f"at least {options.block_steps} steps and {options.block_ms:g} ms" if options.block_ms > 0
            else f"{options.block_steps} steps")
    return (f"# synctax_probe phases: one line per calibration block of {size}, unprofiled\n"
            "# F: previous step's end to backward(); B: backward() to optimizer.step(); O: optimizer.step()\n"
            "# medians in ms, the waits of the loop's own syncs left out (blocks.jsonl has them)\n"
            "forward,backward,optimizer\n")


def write_sites(probe) -> None:
    sites = probe.sites.snapshot()
    sites.sort(key=lambda s: -s["total_wait_ms"])
    write_json(probe.folder, SITES, finite({"format_version": FORMAT_VERSION, "sites": sites}))


def _interval_text(est: Dict[str, Any]) -> str:
    return "%+.1f%% [%+.1f, %+.1f]" % (est["pct"], est["ci_low"], est["ci_high"])


def ab_result(probe) -> Dict[str, Any]:
    opts, book = probe.opts, probe.book
    result = stats.analyse(book.rounds, _AB_COMPARED, opts.bootstrap, opts.seed, opts.window_rounds)
    estimates = result.get("estimates") or {}
    for est in estimates.values():
        est["text"] = _interval_text(est)
    result.update({
        "format_version": FORMAT_VERSION, "ab": opts.ab, "seed": opts.seed, "resamples": opts.bootstrap,
        "block_steps": round(stats.median(book.round_steps)) if book.round_steps else opts.block_steps,
        "block_ms": opts.block_ms, "window_rounds": opts.window_rounds,
        "styles": {"none": "the loop as it is, steps counted", "none_aa": "the loop as it is (A/A control)",
                   "item": "loss.item() added after optimizer.step()",
                   "calib": "the loop as it is, every step timed (calibration: its phases go to phases.csv)"},
        "warmup_steps_dropped": probe.sched.warmup_steps,
        "blocks_end_with_synchronize": probe.gpu is not None,
        # Blocks only counted, not timed step by step: calib against none is then what timing a
        # step costs this loop.
        "counted_styles": ["none", "none_aa", "item"],
        "partial_rounds_dropped": len(probe.sched.orders) - len(book.rounds),
        "orders": probe.sched.orders,
        "round_ms_per_step": book.rounds})
    return finite(result)


def finish(probe, outcome: Dict[str, Any], unfinished: Optional[dict], writer_error: Optional[str]) -> Dict[str, Any]:
    folder, sched, capture = probe.folder, probe.sched, probe.capture
    errors = [writer_error] if writer_error else []

    def guarded(fn, *args):
        try:
            fn(*args)
        except Exception as e:
            errors.append(f"{type(e).__name__}: {e}")

    guarded(write_sites, probe)
    ab = None
    if probe.opts.ab is not None:
        try:
            ab = ab_result(probe)
        except Exception as e:  # the rest of the folder is still worth writing
            ab = {"format_version": FORMAT_VERSION, "ab": probe.opts.ab, "estimates": None,
                  "reason": f"the A/B could not be computed: {type(e).__name__}: {e}"}
        guarded(write_json, folder, AB, ab)
    # The steps recorded: a signal that lands inside the probe's own step-end work leaves that
    # step out of steps.jsonl, and so out of the count.
    steps = probe.writer.written + probe.writer.dropped + probe.writer.untimed
    untimed = probe.writer.untimed
    message = ("no steps found: the script never called a torch.optim optimizer's step()" if steps == 0
               else f"{steps} steps ({steps - untimed} timed step by step, {untimed} counted in blocks)" if untimed
               else f"{steps} steps")
    trace = os.path.basename(capture.path) if capture.steps and os.path.exists(capture.path) else None
    end = {
        "format_version": FORMAT_VERSION,
        "exit_code": outcome.get("exit_code"),
        "exception": outcome.get("exception"),
        "interrupted": bool(outcome.get("interrupted")),
        "signal": outcome.get("signal"),
        "steps": steps,
        "steps_found": steps > 0,
        "message": message,
        "steps_written": probe.writer.written,
        "steps_dropped": probe.writer.dropped,
        "steps_untimed": probe.writer.untimed,
        "queue_size": probe.writer.capacity,
        "warmup_steps": sched.warmup_steps,
        "warmup_settled": sched.warmup_settled,
        "profiled_steps": capture.steps,
        "trace": trace,
        "trace_error": capture.error,
        "blocks": probe.book.blocks,
        "calibration_blocks": probe.book.calibration_blocks,
        "rounds": len(probe.book.rounds) if probe.opts.ab else None,
        "unfinished_block": unfinished,
        "gpu_timed": probe.gpu is not None,
        "gpu_from_step": probe.gpu_from_step,
        "gpu_steps_missed": probe.gpu.missed if probe.gpu is not None else 0,
        "cuda_device": probe.cuda_device,
        "syncs": probe.syncs_total,
        "syncs_unlisted": probe.syncs_unlisted,
        "other_optimizer_steps": probe.other_optimizer_steps,
        "probe_us_per_step": round(stats.median(probe.probe_ms) * 1e3, 3) if probe.probe_ms else None,
        "writer_us_per_step": round(probe.writer.cpu_ns * 1e-3 / steps, 3) if steps else None,
        "duration_s": time.time() - probe.wall_start,
        "end_time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "write_errors": errors,
    }
    info = dict(probe.info, cuda_device=probe.cuda_device)
    guarded(write_json, folder, PROBE, finite(info))
    guarded(write_json, folder, END, finite(end))
    _say(end, ab, probe)
    return end


def _say(end: Dict[str, Any], ab: Optional[Dict[str, Any]], probe) -> None:
    lines = [] if probe.opts.quiet and end["steps"] else [f"synctax_probe: {end['message']}; run folder {probe.folder}"]
    if end["steps_dropped"]:
        lines.append(f"synctax_probe: {end['steps_dropped']} step records dropped (the writer fell behind)")
    if end.get("probe_us_per_step") is not None and not probe.opts.quiet:
        lines.append(f"synctax_probe: its own time after each optimizer step: median {end['probe_us_per_step']:.1f} us "
                     f"on the loop's thread (its wrappers' time not counted); its writer thread's CPU: "
                     f"{end['writer_us_per_step']:.1f} us a step")
    if ab is not None and not probe.opts.quiet:
        estimates = ab.get("estimates")
        if estimates:
            item, floor = estimates["item"], estimates[stats.CONTROL]
            lines.append(f"synctax_probe: {ab['ab']} {item['text']} over {ab['rounds']} rounds "
                         f"(A/A {floor['text']}{', drift flagged' if ab['drift']['flagged'] else ''})")
            timing = estimates.get("calib")
            if timing:
                lines.append(f"synctax_probe: every step timed (calibration blocks) {timing['text']} against the "
                             f"blocks only counted: what its timing costs this loop, one block in four")
            moved = (ab.get("tax_drift") or {}).get("item")
            if moved and moved["flagged"]:
                a, b = moved["first_half"], moved["second_half"]
                lines.append(f"synctax_probe: the tax moved during the run: {a['pct']:+.1f}% "
                             f"[{a['ci_low']:+.1f}, {a['ci_high']:+.1f}] in the first half of the rounds, "
                             f"{b['pct']:+.1f}% [{b['ci_low']:+.1f}, {b['ci_high']:+.1f}] in the second "
                             f"(ab.json's windows show it over time)")
        else:
            lines.append(f"synctax_probe: no A/B estimate: {ab.get('reason')}")
    for error in end["write_errors"]:
        lines.append(f"synctax_probe: writing failed: {error}")
    if lines:
        print("\n".join(lines), file=sys.stderr, flush=True)
