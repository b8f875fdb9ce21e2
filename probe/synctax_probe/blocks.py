"""Per-block aggregates: what a block of steps cost, its phases, and the A/B's rounds. Only blocks
are kept, never steps, so a million steps hold a few tens of thousands of small records.

The loop's side is an append of the step's record and, at a block's end, its wall time; the
medians of the block's phases and GPU times are taken by the writer's thread (block_summary),
off the loop."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .schedule import AB_STYLES, CALIBRATION
from .stats import median

# The phases file's bounds (core/trace: readPhasesMs takes 0.001 to 1e6 ms).
_PHASE_MIN_MS = 0.001

# Where a step's record (Probe.step_end) holds what a block sums up.
_T, _F, _B, _O, _X, _WF, _WB, _WO, _SYNCS = 5, 6, 7, 8, 9, 10, 11, 12, 14


class BlockBook:
    def __init__(self, block_steps: int, writer, ab: bool):
        self._writer = writer
        self._ab = ab
        self._block_steps = block_steps
        self.records: List[tuple] = []  # the block under way's step records (the loop appends)
        self.open_block: Optional[dict] = None  # the block under way
        self.t0: Optional[int] = None  # its first step's start (set by the probe)
        self._held: Optional[Tuple[dict, List[tuple]]] = None  # closed, its GPU times still coming
        self._gpu: Dict[int, List[float]] = {}
        self.blocks = 0
        self.calibration_blocks = 0
        self.rounds: List[Dict[str, float]] = []  # complete rounds: style -> ms per step
        self._partial: Dict[int, Dict[str, float]] = {}

    def open(self, block: int, style: str, round_: Optional[int], t_ms: float) -> None:
        self.open_block = {"block": block, "round": round_, "style": style, "t_ms": round(t_ms, 6)}
        self.t0 = None
        self.records = []

    def gpu_add(self, block: int, gpu_ms: float) -> None:
        times = self._gpu.get(block)
        if times is None:
            self._gpu[block] = [gpu_ms]
        else:
            times.append(gpu_ms)

    def close(self, t_end: int, drain_ns: int) -> None:
        """The block under way ends at t_end (after the drain, if there was one)."""
        block, records = self.open_block, self.records[:self._block_steps]
        if block is None or self.t0 is None or not records:
            return
        n = len(records)
        block["steps"] = n
        block["ms_per_step"] = round((t_end - self.t0) * 1e-6 / n, 6)
        block["drain_ms"] = round(drain_ns * 1e-6, 6)
        self.open_block = None
        self.records = []
        self.blocks += 1
        if self._ab:
            self._add_to_round(block)
        self._release_held()
        self._held = (block, records)

    def finish(self) -> Optional[dict]:
        """At the end: the held block goes out; returns the unfinished block, if any."""
        self._release_held()
        unfinished = self.open_block
        if unfinished is not None:
            unfinished = dict(unfinished, steps=len(self.records)) if self.records else None
        self.open_block = None
        return unfinished

    def _release_held(self) -> None:
        held = self._held
        if held is None:
            return
        self._held = None
        block = held[0]
        times = self._gpu.pop(block["block"], None)
        for old in [k for k in self._gpu if k < block["block"]]:
            del self._gpu[old]
        if block["style"] == CALIBRATION:
            self.calibration_blocks += 1
        self._writer.put_block((block, held[1], times))

    def _add_to_round(self, block: dict) -> None:
        r = block["round"]
        styles = self._partial.setdefault(r, {})
        styles[block["style"]] = block["ms_per_step"]
        if len(styles) == len(AB_STYLES) and min(styles.values()) > 0:
            del self._partial[r]
            self.rounds.append(styles)


def block_summary(held: tuple) -> Tuple[dict, Optional[str]]:
    """On the writer's thread: a closed block's line of blocks.jsonl (its phases with the sync
    waits taken out, the waits, and its GPU times: medians) and its phases.csv line where it is a
    calibration block."""
    block, records, times = held
    n = len(records)

    def ms(values) -> float:
        return round(median(values) * 1e-6, 6)

    block.update({
        "f_ms": ms([r[_F] - r[_WF] for r in records]), "b_ms": ms([r[_B] - r[_WB] for r in records]),
        "o_ms": ms([r[_O] - r[_WO] for r in records]),
        "f_wait_ms": ms([r[_WF] for r in records]), "b_wait_ms": ms([r[_WB] for r in records]),
        "o_wait_ms": ms([r[_WO] for r in records]),
        "syncs_per_step": sum(len(r[_SYNCS]) for r in records if r[_SYNCS]) / n,
        "added_item_ms_per_step": round(sum(r[_X] for r in records) * 1e-6 / n, 6),
        # The probe's own time on the loop's thread after each optimizer step: from the step's
        # end (and its added item) to the next step's start, between consecutive steps.
        "probe_ms": ms([b[_T] - (a[_T] + a[_F] + a[_B] + a[_O] + a[_X]) for a, b in zip(records, records[1:])])
        if n > 1 else None})
    # The keys in the order the format gives them.
    drain = block.pop("drain_ms")
    block["drain_ms"] = drain
    block["gpu_ms_median"] = median(times) if times else None
    block["gpu_steps"] = len(times) if times else 0
    line = None
    if block["style"] == CALIBRATION:
        line = "%.4f,%.4f,%.4f\n" % tuple(max(_PHASE_MIN_MS, block[k]) for k in ("f_ms", "b_ms", "o_ms"))
    return block, line
