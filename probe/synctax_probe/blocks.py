"""Per-block aggregates: what a block of steps cost, its phases, and the A/B's rounds. Only blocks
are kept, never steps, so a million steps hold a few tens of thousands of small records."""
from __future__ import annotations

from typing import Dict, List, Optional

from .schedule import AB_STYLES, CALIBRATION
from .stats import median

# The phases file's bounds (core/trace: readPhasesMs takes 0.001 to 1e6 ms).
_PHASE_MIN_MS = 0.001


class BlockBook:
    def __init__(self, block_steps: int, writer, ab: bool):
        self._writer = writer
        self._ab = ab
        n = block_steps
        self._f: List[int] = [0] * n
        self._b: List[int] = [0] * n
        self._o: List[int] = [0] * n
        self._wf: List[int] = [0] * n
        self._wb: List[int] = [0] * n
        self._wo: List[int] = [0] * n
        self._x = 0
        self._syncs = 0
        self._n = 0
        self.open_block: Optional[dict] = None  # the block under way
        self.t0: Optional[int] = None  # its first step's start (set by the probe)
        self._held: Optional[dict] = None  # closed, its GPU times still coming
        self._gpu: Dict[int, List[float]] = {}
        self.blocks = 0
        self.calibration_blocks = 0
        self.rounds: List[Dict[str, float]] = []  # complete rounds: style -> ms per step
        self._partial: Dict[int, Dict[str, float]] = {}

    def open(self, block: int, style: str, round_: Optional[int], t_ms: float) -> None:
        self.open_block = {"block": block, "round": round_, "style": style, "t_ms": round(t_ms, 6)}
        self.t0 = None
        self._n = 0
        self._x = 0
        self._syncs = 0

    def add_step(self, f: int, b: int, o: int, wf: int, wb: int, wo: int, x: int, syncs: int) -> None:
        i = self._n
        if i < len(self._f):
            self._f[i], self._b[i], self._o[i] = f - wf, b - wb, o - wo
            self._wf[i], self._wb[i], self._wo[i] = wf, wb, wo
            self._n = i + 1
        self._x += x
        self._syncs += syncs

    def gpu_add(self, block: int, gpu_ms: float) -> None:
        times = self._gpu.get(block)
        if times is None:
            self._gpu[block] = [gpu_ms]
        else:
            times.append(gpu_ms)

    def close(self, t_end: int, drain_ns: int) -> None:
        """The block under way ends at t_end (after the drain, if there was one)."""
        block = self.open_block
        if block is None or self.t0 is None or self._n == 0:
            return
        n = self._n
        ms = lambda xs: round(median(xs[:n]) * 1e-6, 6)
        block.update({
            "steps": n, "ms_per_step": round((t_end - self.t0) * 1e-6 / n, 6),
            "f_ms": ms(self._f), "b_ms": ms(self._b), "o_ms": ms(self._o),
            "f_wait_ms": ms(self._wf), "b_wait_ms": ms(self._wb), "o_wait_ms": ms(self._wo),
            "syncs_per_step": self._syncs / n, "added_item_ms_per_step": round(self._x * 1e-6 / n, 6),
            "drain_ms": round(drain_ns * 1e-6, 6)})
        self.open_block = None
        self.blocks += 1
        if self._ab:
            self._add_to_round(block)
        self._release_held()
        self._held = block

    def finish(self) -> Optional[dict]:
        """At the end: the held block goes out; returns the unfinished block, if any."""
        self._release_held()
        unfinished = self.open_block
        if unfinished is not None:
            unfinished = dict(unfinished, steps=self._n) if self._n else None
        self.open_block = None
        return unfinished

    def _release_held(self) -> None:
        block = self._held
        if block is None:
            return
        self._held = None
        times = self._gpu.pop(block["block"], None)
        for old in [k for k in self._gpu if k < block["block"]]:
            del self._gpu[old]
        block["gpu_ms_median"] = median(times) if times else None
        block["gpu_steps"] = len(times) if times else 0
        line = None
        if block["style"] == CALIBRATION:
            self.calibration_blocks += 1
            line = "%.4f,%.4f,%.4f\n" % tuple(max(_PHASE_MIN_MS, block[k]) for k in ("f_ms", "b_ms", "o_ms"))
        self._writer.put_block(block, line)

    def _add_to_round(self, block: dict) -> None:
        r = block["round"]
        styles = self._partial.setdefault(r, {})
        styles[block["style"]] = block["ms_per_step"]
        if len(styles) == len(AB_STYLES) and min(styles.values()) > 0:
            del self._partial[r]
            self.rounds.append(styles)
