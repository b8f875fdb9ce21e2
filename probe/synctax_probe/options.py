"""The probe's options, checked in one place for the command line and for attach()."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Dict, Optional

AB_STYLES = ("item",)


@dataclass
class Options:
    # --ab: the change tried in alternate blocks (None: every measured block is a calibration block)
    ab: Optional[str] = None
    # A block holds at least block_steps steps, and as many more as take block_ms at the loop's
    # speed (measured on the blocks before; one length for every block of a round): the work at a
    # block's end, on the loop's thread and the writer's, is then paid once every block_ms however
    # fast the steps. block_ms 0: every block holds block_steps steps.
    block_steps: int = 20
    block_ms: float = 100.0
    # Without --ab, one block in calib_every is a calibration block: its steps are timed one by one
    # (phases, syncs by step, a line each in steps.jsonl); the others (style none) are only counted,
    # with their wall time, GPU time and syncs per block, which costs the loop next to nothing.
    # 1: every block a calibration block. With --ab, each round of four blocks holds one.
    calib_every: int = 4
    # Warm-up: at least this many steps, then until two 10-step windows agree within 10% or the
    # most is spent.
    warmup_steps: int = 30
    warmup_max_steps: int = 300
    # Profiled steps (with stacks); 0: no trace.
    profile_steps: int = 5
    # Measured blocks before the capture (whole rounds with --ab): the loop before it, against the
    # blocks after it, says whether the capture left anything behind. 0: the capture right after
    # the warm-up, nothing to compare with.
    capture_after_blocks: int = 8
    # Unmeasured steps after the capture, while the profiler's teardown fades.
    settle_steps: int = 10
    seed: int = 1
    bootstrap: int = 2000
    window_rounds: int = 10
    # Steps the writer may fall behind by before a new segment's steps are dropped (and counted).
    queue_size: int = 65536
    # The GPU's time is read over spans of steps at least this long (an event at the end of the
    # first step that ends this long after the previous event, and with an A/B at each block's
    # end). An event costs the loop's thread tens of microseconds on a VM: once a millisecond step
    # it would cost several percent.
    gpu_span_ms: float = 100.0
    trace_gz: bool = False
    # No summary and no "no CUDA" note on stderr (a benchmark attaching many times); dropped
    # records and failed writes are still said.
    quiet: bool = False

    def check(self) -> None:
        """Raises ValueError naming the first option out of range."""
        if self.ab is not None and self.ab not in AB_STYLES:
            raise ValueError(f"ab: expected one of {', '.join(AB_STYLES)}, got {self.ab!r}")
        bounds = {
            "block_steps": (2, 1_000_000),
            "calib_every": (1, 1_000_000),
            "warmup_steps": (0, 1_000_000),
            "warmup_max_steps": (0, 10_000_000),
            "profile_steps": (0, 1000),
            "capture_after_blocks": (0, 1_000_000),
            "settle_steps": (0, 1_000_000),
            "seed": (0, 2**63 - 1),
            "bootstrap": (2000, 1_000_000),
            "window_rounds": (2, 1_000_000),
            "queue_size": (1, 100_000_000),
        }
        for name, (low, high) in bounds.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name}: expected an integer from {low} to {high}, got {value!r}")
        for name in ("gpu_span_ms", "block_ms"):
            ms = getattr(self, name)
            if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0 <= ms <= 60000:
                raise ValueError(f"{name}: expected a number of milliseconds from 0 to 60000, got {ms!r}")
        if self.warmup_max_steps < self.warmup_steps:
            raise ValueError(
                f"warmup_max_steps ({self.warmup_max_steps}) is below warmup_steps ({self.warmup_steps})")

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)
