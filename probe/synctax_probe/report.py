"""What the run folder says: the phases file's head, and the files written at the
end (sites.json, ab.json, end.json, probe.json completed)."""
from __future__ import annotations

import os
import sys
import time
from typing import Any, Dict, List, Optional

from . import stats
from .defer import CALLS_A_STEP, MAX_ELEMENTS
from .defersite import about
from .options import Options
from .runfolder import AB, END, FORMAT_VERSION, PROBE, SITES, finite, write_json
from .schedule import DEFER
# The capture's after-effect the probe lets pass (%): more, outside its interval, is flagged.
CAPTURE_LIMIT_PCT = 1.0


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


def capture_check(probe) -> Dict[str, Any]:
    """The loop as it is (none and none_aa blocks) after the capture against before it: what the
    capture left behind. As many blocks after as there were before, the first ones: the rest of a
    long run would bring its own drift in. Flagged when the loop ran slower after it, the interval
    above zero and the after-effect over CAPTURE_LIMIT_PCT."""
    capture, book, opts = probe.capture, probe.book, probe.opts
    check: Dict[str, Any] = {"estimate": None, "flagged": False, "teardown": capture.teardown}
    if not capture.steps:
        check["reason"] = "no capture was taken" + (" (--profile-steps 0)" if opts.profile_steps == 0 else "")
        return check
    before = book.before_window(probe.sched.capture_window_block)
    est = stats.shift(before, book.baseline_after[:len(before)], opts.bootstrap, opts.seed)
    if est is None:
        check["reason"] = (f"{len(before)} block(s) of the loop as it is before the capture and "
                           f"{min(len(before), len(book.baseline_after))} after it: at least 2 a side are needed"
                           + (" (--capture-after-blocks 0)" if opts.capture_after_blocks == 0 else ""))
        return check
    est["text"] = _interval_text(est)
    check["estimate"] = est
    # Only a slower loop after the capture is its after-effect. A faster one (the interval above
    # zero on the other side) is the loop still speeding up before it: the warm-up's end, a GPU
    # clock rising; the rounds before it are paired all the same and stay in.
    slower = bool(est["ci_low"] > 0 and est["pct"] > CAPTURE_LIMIT_PCT)
    check["faster_after"] = bool(est["ci_high"] < 0 and est["pct"] < -CAPTURE_LIMIT_PCT)
    # The loop's own drift over as many blocks, later on with no capture between them (the next
    # blocks after against the first after): a loop that slows as much without a capture (a host
    # warming up, a neighbour) shows no after-effect of it.
    k = len(before)
    drift = stats.shift(book.baseline_after[:k], book.baseline_after[k:2 * k], opts.bootstrap, opts.seed + 1)
    check["drift"] = drift
    check["within_drift"] = bool(slower and drift is not None and drift["pct"] >= est["pct"] - CAPTURE_LIMIT_PCT)
    check["flagged"] = slower and not check["within_drift"]
    return check


def ab_result(probe, check: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The A/B over its complete rounds; where the capture left the loop changed (check flagged),
    over the rounds before it alone, and it says so. With --ab defer, over the rounds whose defer
    block deferred a line, and `defer` says which line and what became of its reads; no estimate
    where it deferred nothing (the line refused, never picked or never synced)."""
    opts, book = probe.opts, probe.book
    style = opts.ab_style or "item"
    kept, rounds_from = [True] * len(book.rounds), "all"
    if check is not None and check["flagged"]:
        kept = [not after for after in book.rounds_after_capture]
        rounds_from = "before the capture"
    if style == DEFER:
        kept = [k and deferring for k, deferring in zip(kept, book.rounds_deferring)]
    rounds = [r for r, k in zip(book.rounds, kept) if k]
    result = stats.analyse(rounds, (style, stats.CONTROL, "calib"), opts.bootstrap, opts.seed, opts.window_rounds)
    result["rounds_from"] = rounds_from
    result["rounds_before_capture"] = book.rounds_after_capture.count(False)
    estimates: Dict[str, Dict[str, Any]] = result.get("estimates") or {}
    for est in estimates.values():
        est["text"] = _interval_text(est)
    result.update({
        "format_version": FORMAT_VERSION, "ab": style, "seed": opts.seed, "resamples": opts.bootstrap,
        "block_steps": round(stats.median(book.round_steps)) if book.round_steps else opts.block_steps,
        "block_ms": opts.block_ms, "window_rounds": opts.window_rounds,
        "styles": {"none": "the loop as it is, steps counted", "none_aa": "the loop as it is (A/A control)",
                   style: STYLE_TEXT[style],
                   "calib": "the loop as it is, every step timed (calibration: its phases go to phases.csv)"},
        "warmup_steps_dropped": probe.sched.warmup_steps,
        "blocks_end_with_synchronize": probe.gpu is not None,
        # Blocks only counted, not timed step by step: calib against none is then what timing a
        # step costs this loop.
        "counted_styles": ["none", "none_aa", style],
        # Without a device the added item waits for nothing: what is measured is its Python call.
        "measures": MEASURES[style][probe.cpu_mode],
        "partial_rounds_dropped": len(probe.sched.orders) - len(book.rounds),
        "orders": probe.sched.orders,
        "round_ms_per_step": book.rounds})
    if style == DEFER:
        _add_defer(result, probe)
    return finite(result)


STYLE_TEXT = {"item": "loss.item() added after optimizer.step()",
              DEFER: "the deferred line's reads answered with the newest earlier value whose non-blocking copy "
                     "into pinned memory had completed (ab.json's defer says which line)"}
MEASURES = {"item": {False: "loss.item() after optimizer.step(): its wait for the GPU and its call",
                     True: "the Python cost of loss.item(): no device to wait for"},
            DEFER: {False: "deferring one line's syncs: the waits they no longer do, less what their copies and "
                           "events cost",
                    True: "the Python cost of deferring one line's reads: no device to wait for"}}


def _add_defer(result: Dict[str, Any], probe) -> None:
    """ab.json's `defer` (DeferSite.record), its measured answer and closing text; no estimates
    where the A/B deferred nothing."""
    w = probe.writer
    steps = w.written + w.dropped + w.untimed
    rec = probe.defer_site.record(probe.opts, probe.sites.all(), steps, probe.deferrer.report())
    rec["rounds_without_line"] = probe.book.rounds_deferring.count(False)  # left out: before the pick
    estimates = result.get("estimates")
    if rec["refused"] is not None:
        for key in ("estimates", "noise_floor", "drift", "tax_drift", "windows"):
            result.pop(key, None)
        result["estimates"] = None
        result["reason"] = f"--ab defer deferred nothing: {rec['refused']}"
    elif estimates:
        rec["measured"] = {k: estimates[DEFER][k] for k in ("pct", "ci_low", "ci_high", "text")}
        rec["text"] = defer_lines(dict(result, defer=rec), probe.cpu_mode)[0]
    result["defer"] = rec


def defer_lines(ab: Dict[str, Any], cpu_mode: bool) -> List[str]:
    """The closing lines of --ab defer: what deferring the line saves, measured; how late the loop
    saw its values; the what-if beside it."""
    d, est, floor = ab["defer"], ab["estimates"][DEFER], ab["estimates"][stats.CONTROL]
    only = " before the capture, which left the loop changed" if ab.get("rounds_from") != "all" else ""
    cpu = "; no device: the Python cost of deferring, not a sync" if cpu_mode else ""
    drift = ", drift flagged" if ab["drift"]["flagged"] else ""
    lines = [f"deferring {d['site']} ({about(d)}) {'saves' if est['pct'] <= 0 else 'costs'} {est['text']} of the "
             f"step, measured in your loop ({ab['rounds']} rounds{only}, paired, A/A {floor['text']}{drift}{cpu})"]
    r = d["deferred"]
    late = f"in its blocks the loop saw that line's values late: {r['late']} of {r['calls']} reads"
    if r["lag_calls"]:
        calls, steps = r["lag_calls"], r["lag_steps"]
        late += (f", {_n(calls['median'], 'read')} ({_n(steps['median'], 'step')}) late at the median, "
                 f"{_n(calls['max'], 'read')} at most")
    waited = r["waited_first"] + r["waited_in_flight"]
    if waited:
        late += (f"; {waited} waited as before (a first read, or copies still in flight {r['lag_limit_calls']} "
                 f"reads on)")
    if r["not_deferred"]:
        late += (f"; {r['not_deferred']} not deferred (over {MAX_ELEMENTS} elements, or more than {CALLS_A_STEP} "
                 "a step)")
    lines.append(late)
    lines.append(f"the what-if's prediction without {d['site']}: {d['whatif_reason']}")
    return lines


def _n(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def finish(probe, outcome: Dict[str, Any], unfinished: Optional[dict], writer_error: Optional[str]) -> Dict[str, Any]:
    folder, sched, capture = probe.folder, probe.sched, probe.capture
    errors = [writer_error] if writer_error else []

    def guarded(fn, *args):
        try:
            fn(*args)
        except Exception as e:
            errors.append(f"{type(e).__name__}: {e}")

    guarded(write_sites, probe)
    check = capture_check(probe)
    ab = None
    if probe.opts.ab is not None:
        try:
            ab = ab_result(probe, check)
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
        "capture_first_step": capture.first_step,
        # Blocks the capture waited past capture_after_blocks for a loop still speeding up, and
        # whether the loop had stopped speeding up when it came.
        "capture_waited_blocks": sched.capture_waited_blocks if sched.capture_block is not None else None,
        "capture_loop_settled": sched.capture_loop_settled if sched.capture_block is not None else None,
        "capture_after_effect": check["estimate"],
        "capture_after_effect_flagged": check["flagged"],
        "capture_faster_after": check.get("faster_after", False),
        "capture_drift": check.get("drift"),
        "capture_within_drift": check.get("within_drift", False),
        "capture_after_effect_reason": check.get("reason"),
        "capture_teardown": check["teardown"],
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
        "other_optimizer_steps": probe.hooks.other_optimizer_steps,
        "loop_optimizer_changes": probe.loop_optimizer_changes,
        "steps_before_take_over": probe.taken_over_steps,
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
    """The closing lines on stderr. They state no cost of the probe's own: what it costs a loop
    is measured against separate plain processes (docs/validation.md), not from inside."""
    lines = [] if probe.opts.quiet and end["steps"] else [f"synctax_probe: {end['message']}; run folder {probe.folder}"]
    if end["steps_dropped"]:
        lines.append(f"synctax_probe: {end['steps_dropped']} step records dropped (the writer fell behind)")
    if end.get("loop_optimizer_changes"):
        lines.append(f"synctax_probe: the loop's optimizer changed {end['loop_optimizer_changes']} time(s): a new "
                     f"one took over its steps ({end['steps_before_take_over']} of their first steps not counted "
                     f"as the loop's)")
    if end.get("other_optimizer_steps"):
        lines.append(f"synctax_probe: {end['other_optimizer_steps']} steps of another optimizer than the loop's, "
                     f"timed within the phase they fell in (end.json's other_optimizer_steps)")
    if not probe.opts.quiet and end.get("profiled_steps"):
        lines.append("synctax_probe: " + capture_text(end, ab is not None))
    if ab is not None and not probe.opts.quiet:
        estimates = ab.get("estimates")
        if estimates and ab.get("ab") == DEFER:
            lines += ["synctax_probe: " + line for line in defer_lines(ab, probe.cpu_mode)]
        elif estimates:
            item, floor = estimates["item"], estimates[stats.CONTROL]
            only = " before the capture (it left the loop changed)" if ab.get("rounds_from") != "all" else ""
            cpu = "; no device: the Python cost of the call, not a sync" if probe.cpu_mode else ""
            lines.append(f"synctax_probe: {ab['ab']} {item['text']} over {ab['rounds']} rounds{only} "
                         f"(A/A {floor['text']}{', drift flagged' if ab['drift']['flagged'] else ''}{cpu})")
        if estimates:
            moved = (ab.get("tax_drift") or {}).get(ab.get("ab"))
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


def capture_text(end: Dict[str, Any], ab: bool) -> str:
    """What the capture left behind, in a sentence."""
    est = end.get("capture_after_effect")
    teardown = end.get("capture_teardown") or ""
    if est is None:
        return f"the capture's after-effect was not measured: {end.get('capture_after_effect_reason')}; {teardown}"
    text = (f"the loop after the capture against before it: {est['text']} "
            f"({est['after_blocks']} and {est['before_blocks']} blocks; {teardown})")
    if end.get("capture_within_drift"):
        text += (f"; not flagged: the loop slowed {end['capture_drift']['pct']:+.1f}% over as many blocks after it "
                 f"with no capture between them (its own drift)")
    waited = end.get("capture_waited_blocks") or 0
    blocks = _n(waited, "block")
    if end.get("capture_loop_settled") is False:
        text += f"; the loop was still speeding up when it was taken ({blocks} later than asked, the longest the capture waits)"
    elif waited:
        text += f"; taken {blocks} later than asked, once the loop stopped speeding up"
    if end.get("capture_faster_after"):
        text += "; the loop ran faster after it: still speeding up before it, not an after-effect"
    if end.get("capture_after_effect_flagged"):
        text += ("; flagged: the capture left the loop changed, " + ("the A/B comes from the rounds before it" if ab
                 else "the blocks after it measure the changed loop"))
    return text
