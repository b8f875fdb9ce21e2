"""The loop's steps as the probe keeps them: runs of steps of one stage or block (segments), each
step five integers packed onto its segment's bytes; what a block cost and the A/B's rounds.

The loop's side is one append a step (in a counted block, one not timed step by step, a countdown
on the probe, its count set here at the block's end) and, at a segment's end, its wall time; the
step lines, the medians of a block's phases and its GPU time are made by the writer's thread
(step_lines, block_summary), off the loop. Segments are dropped once written, so a million steps
hold no more than the writer's backlog."""
from __future__ import annotations

import json
import math
import struct
from typing import Any, Dict, List, Optional, Tuple, cast

from .schedule import AB_STYLES, BASELINE_STYLES, CALIBRATION, DEFER
from .stats import median

# The phases file's bounds (core/trace: readPhasesMs takes 0.001 to 1e6 ms).
_PHASE_MIN_MS = 0.001

# A step in a segment's bytes: its start, its first backward()'s start (0: none), the optimizer's
# step() from T0 to T1, and the end of the added loss.item() (T1 where none was added). Packed, not
# kept as tuples: nothing for the garbage collector to follow, 40 bytes a step, and as cheap to
# append as a tuple (array.extend converts ten times slower).
STEP = struct.Struct("<5q")
# The loop still speeds up while its last SPEEDING_BLOCKS blocks as it is ran more than
# SPEEDING_PCT quicker than the ones before them: the capture waits (schedule.CAPTURE_WAIT).
SPEEDING_BLOCKS, SPEEDING_PCT = 4, 2.0
_X = 4

# A step's syncs (Segment.extra): the waits in F, B and O, then the listed syncs.
_PHASE_LETTER = "FBO"


class Segment:
    """Consecutive steps of one stage, or of one block. `block` is the block's line of
    blocks.jsonl so far (None outside blocks); `closed` is set when its last step is in. A
    counted segment (a block not timed step by step) holds no steps, only their number once it
    is closed (`count`), and its syncs' number and waits."""
    __slots__ = ("stage", "block", "first", "rec", "extra", "closed", "t0", "written", "drop", "gpu",
                 "counted", "count", "syncs", "wait_ns", "added", "deferred", "deferred_waits")

    def __init__(self, stage: str, first: int, block: Optional[dict] = None, counted: bool = False):
        self.stage = stage
        self.block = block
        self.first = first  # the first step's index
        self.rec = bytearray()
        self.extra: Dict[int, List[Any]] = {}  # step index -> [wait F, wait B, wait O, syncs]
        self.closed = False
        self.t0: Optional[int] = None  # the first step's start (blocks' wall time)
        self.written = 0  # steps the writer has taken
        self.drop = False  # the writer was too far behind: steps counted, not written
        self.gpu: List[Optional[float]] = []  # the written steps' GPU ms (the writer's thread)
        self.counted = counted
        self.count = 0  # a counted segment's steps, set at its end
        self.syncs = 0  # a counted segment's syncs and their waits
        self.wait_ns = 0
        self.added = 0  # a counted segment's added items (an A/B's item blocks)
        self.deferred = 0  # a defer block's reads answered late, and those that waited
        self.deferred_waits = 0

    def steps(self) -> int:
        return self.count if self.counted else len(self.rec) // STEP.size

    def records(self, i0: int, i1: int) -> List[tuple]:
        """Steps i0 to i1 as (start, backward start, T0, T1, item end)."""
        size = STEP.size
        return list(STEP.iter_unpack(bytes(self.rec[i0 * size:i1 * size])))


class BlockBook:
    """Blocks' wall time and the A/B's rounds, on the loop's thread."""

    def __init__(self, ab: bool):
        self._ab = ab
        self.blocks = 0
        self.calibration_blocks = 0
        self.rounds: List[Dict[str, float]] = []  # complete rounds: style -> ms per step
        self.round_steps: List[int] = []  # the steps of each complete round's blocks
        self.rounds_after_capture: List[bool] = []  # of each complete round
        # Of each complete round: its defer block deferred a line (--ab defer picks one after the
        # warm-up; a round before the pick measured nothing). True for every round of --ab item.
        self.rounds_deferring: List[bool] = []
        self._partial_void: Dict[int, bool] = {}
        # The loop as it is (none and none_aa blocks), ms per step, before and after the capture.
        self.baseline_before: List[float] = []
        self.baseline_before_blocks: List[int] = []  # their block numbers
        self.baseline_after: List[float] = []
        self._partial: Dict[int, Dict[str, float]] = {}

    def close(self, seg: Segment, t_end: int, drain_ns: int) -> None:
        """A block's segment ends at t_end (after the drain, if there was one)."""
        n = seg.steps()
        block = seg.block
        seg.closed = True
        if seg.t0 is None or not n:
            seg.block = None  # nothing measured: no line
            return
        assert block is not None  # only a block's segment is closed here
        block["steps"] = n
        block["ms_per_step"] = round((t_end - seg.t0) * 1e-6 / n, 6)
        block["drain_ms"] = round(drain_ns * 1e-6, 6)
        self.blocks += 1
        if block["style"] == CALIBRATION:
            self.calibration_blocks += 1
        elif block["style"] in BASELINE_STYLES:
            if block.get("after_capture"):
                self.baseline_after.append(block["ms_per_step"])
            else:
                self.baseline_before.append(block["ms_per_step"])
                self.baseline_before_blocks.append(block["block"])
        if self._ab:
            self._add_to_round(block)

    def speeding_up(self, k: int = SPEEDING_BLOCKS, pct: float = SPEEDING_PCT) -> bool:
        """Whether the loop as it is still speeds up: its last k blocks before the capture quicker
        than the k before them by more than pct (geometric means; k as many as there are blocks for,
        at least 2)."""
        k = min(k, len(self.baseline_before) // 2)  # fewer a side early on (two at the least)
        ms = self.baseline_before[-2 * k:] if k >= 2 else []
        if not ms or min(ms) <= 0:
            return False
        earlier, later = (math.fsum(math.log(v) for v in part) / k for part in (ms[:k], ms[k:]))
        return later < earlier + math.log1p(-pct / 100.0)

    def before_window(self, first_block: int) -> List[float]:
        """The blocks of the loop as it is before the capture, from block first_block on."""
        return [ms for ms, b in zip(self.baseline_before, self.baseline_before_blocks) if b >= first_block]

    def _add_to_round(self, block: dict) -> None:
        r = block["round"]
        styles = self._partial.setdefault(r, {})
        styles[block["style"]] = block["ms_per_step"]
        if block["style"] == DEFER:
            self._partial_void[r] = block.get("deferred_site") is None
        if len(styles) == len(AB_STYLES) and min(styles.values()) > 0:
            del self._partial[r]
            self.rounds.append(styles)
            self.round_steps.append(block["steps"])
            self.rounds_after_capture.append(bool(block.get("after_capture")))
            self.rounds_deferring.append(not self._partial_void.pop(r, False))


def step_lines(seg: Segment, i0: int, i1: int, run_start: int, gpu: List[Optional[float]]) -> str:
    """steps.jsonl's lines for the segment's steps i0 to i1 (gpu: their GPU ms, or None). On the
    writer's thread, which holds the GIL the loop wants: one formatting per step, the segment's
    constant part formatted once."""
    rec, extra, first = seg.records(i0, i1), seg.extra, seg.first
    block = seg.block
    if block is None:
        head = '{"step":%d,"stage":"' + seg.stage + '","block":null,"round":null,"style":null,'
    else:
        head = ('{"step":%d,"stage":"' + seg.stage + '","block":' + str(block["block"]) + ',"round":'
                + ("null" if block["round"] is None else str(block["round"])) + ',"style":"' + block["style"] + '",')
    numbers = '"t_ns":%d,"f_ns":%d,"b_ns":%d,"o_ns":%d,"x_ns":%d,"waits_ns":'
    plain = (head + numbers + '[0,0,0],"syncs":[],"gpu_ms":%s}\n').__mod__
    full = head + numbers + '[%d,%d,%d],"syncs":%s,"gpu_ms":%s}\n'
    texts: Dict[Any, str] = {None: "null"}  # a GPU span's steps share its time: formatted once
    g_text = [texts.get(g) or texts.setdefault(g, "%.4f" % g) for g in cast(List[Any], gpu)]  # None: "null"
    # Each step's fields (one comprehension), its line as if it had no sync, then the few that did.
    rows = [(first + i, start - run_start, (bs or t0) - start, t0 - bs if bs else 0, t1 - t0, x - t1, g)
            for i, (start, bs, t0, t1, x), g in zip(range(i0, i1), rec, g_text)]
    lines = list(map(plain, rows))
    # The loop's thread adds to `extra` meanwhile (its step under way): looked up, never iterated.
    for k in range(i1 - i0) if extra else ():
        e = extra.get(first + i0 + k)
        if e is not None:
            syncs = json.dumps(e[3], separators=(",", ":")) if e[3] else "[]"
            lines[k] = full % (rows[k][:6] + (e[0], e[1], e[2], syncs, rows[k][6]))
    return "".join(lines)


def block_summary(seg: Segment) -> Tuple[dict, Optional[str]]:
    """A closed block's line of blocks.jsonl (its phases with the sync waits taken out, the waits,
    and its GPU time: medians) and its phases.csv line where it is a calibration block."""
    if seg.counted:
        return counted_block_summary(seg), None
    block, extra, first = seg.block, seg.extra, seg.first
    assert block is not None  # a block's segment
    n = seg.steps()
    rec = seg.records(0, n)
    # The probe's own time on the loop's thread after each optimizer step: from the step's end
    # (and its added item) to the next step's start.
    own = [rec[i][0] - rec[i - 1][_X] for i in range(1, n)]
    f = [(bs or t0) - start for start, bs, t0, _, _ in rec]
    b = [t0 - bs if bs else 0 for _, bs, t0, _, _ in rec]
    o = [t1 - t0 for _, _, t0, t1, _ in rec]
    x_total = sum(x - t1 for _, _, _, t1, x in rec)
    waits, syncs = ([0] * n, [0] * n, [0] * n), 0
    for step, e in extra.items():  # the steps with syncs: their waits are taken out of their phases
        i = step - first
        if 0 <= i < n:
            f[i] -= e[0]
            b[i] -= e[1]
            o[i] -= e[2]
            for k in range(3):
                waits[k][i] = e[k]
            syncs += len(e[3]) if e[3] else 0

    def ms(values) -> float:
        return round(median(values) * 1e-6, 6)

    drain = block.pop("drain_ms")
    block.update({
        "f_ms": ms(f), "b_ms": ms(b), "o_ms": ms(o),
        "f_wait_ms": ms(waits[0]) if extra else 0.0, "b_wait_ms": ms(waits[1]) if extra else 0.0,
        "o_wait_ms": ms(waits[2]) if extra else 0.0,
        "syncs_per_step": syncs / n, "added_item_ms_per_step": round(x_total * 1e-6 / n, 6),
        "probe_ms": ms(own) if own else None, "drain_ms": drain, "timed": True})
    _add_deferred(block, seg)
    _add_gpu(block, seg)
    line = None
    if block["style"] == CALIBRATION:
        line = "%.4f,%.4f,%.4f\n" % tuple(max(_PHASE_MIN_MS, block[k]) for k in ("f_ms", "b_ms", "o_ms"))
    return block, line


def counted_block_summary(seg: Segment) -> dict:
    """A counted block's line: its steps' number and wall time, its syncs and GPU time; no phases."""
    block = seg.block
    assert block is not None  # a block's segment
    n = seg.steps()
    drain = block.pop("drain_ms")
    block.update({"syncs_per_step": seg.syncs / n, "wait_ms_per_step": round(seg.wait_ns * 1e-6 / n, 6),
                  "added_items": seg.added, "drain_ms": drain, "timed": False})
    _add_deferred(block, seg)
    _add_gpu(block, seg)
    return block


def _add_deferred(block: dict, seg: Segment) -> None:
    """A defer block's reads at the deferred line: answered late, and those that waited."""
    if block["style"] == DEFER:
        block["deferred"] = seg.deferred
        block["deferred_waited"] = seg.deferred_waits


def _add_gpu(block: dict, seg: Segment) -> None:
    times = [g for g in seg.gpu if g is not None]
    block["gpu_ms_median"] = median(times) if times else None
    block["gpu_steps"] = len(times)
