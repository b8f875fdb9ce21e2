"""The probe's options, each described once: its default, its help and its bounds. The command
line's parser (python3 -m synctax_probe) is built from them, and Options.check holds the command
line and attach() to the same bounds."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Dict, Optional, Tuple

# The changes an A/B tries: the style of its treatment blocks; defer also as defer:FILE:LINE.
AB_STYLES = ("item", "defer")


def _option(default: Any, help: str, bounds: Optional[Tuple[float, float]] = None, unit: str = "N") -> Any:
    """A field with what the command line says of it (`--name`, its help) and its bounds, checked
    by Options.check for the command line and attach() alike. unit: N (an integer), MS (a number of
    milliseconds), or "" (a flag)."""
    return field(default=default, metadata={"help": help, "bounds": bounds, "unit": unit})


@dataclass
class Options:
    # --ab: the change tried in alternate blocks (None: every measured block is a calibration block):
    # item, defer (the sync with the largest wait per step that can be deferred, picked after the
    # warm-up) or defer:FILE:LINE (that line's syncs).
    ab: Optional[str] = field(default=None, metadata={
        "help": "alternate blocks with and without this change, paired: item (a loss.item() added after each "
                "step), defer (the sync with the largest wait per step, deferred: its value read one call late) "
                "or defer:FILE:LINE (that line's syncs deferred)", "unit": "STYLE", "text": True})
    # --keep: lines --ab defer must not pick (their values must not come late).
    keep: Tuple[str, ...] = field(default=(), metadata={
        "help": "with --ab defer, a line it must not pick (repeatable)", "unit": "FILE:LINE", "many": True})
    # A deferred call answers with a value at most defer_lag calls old; where every copy of that many
    # calls before it is still in flight, it waits as the loop does without the probe.
    defer_lag: int = _option(8, "with --ab defer, the most calls late a deferred value may be; beyond, the call "
                             "waits", (1, 1000))
    # A block holds at least block_steps steps, and as many more as take block_ms at the loop's
    # speed (measured on the blocks before; one length for every block of a round): the work at a
    # block's end, on the loop's thread and the writer's, is then paid once every block_ms however
    # fast the steps. block_ms 0: every block holds block_steps steps.
    block_steps: int = _option(20, "fewest steps a block holds", (2, 1_000_000))
    block_ms: float = _option(100.0, "and as many more as take MS at the loop's speed (0: always --block-steps)",
                              (0, 60000), "MS")
    # Without --ab, one block in calib_every is a calibration block: its steps are timed one by one
    # (phases, syncs by step, a line each in steps.jsonl); the others (style none) are only counted,
    # with their wall time, GPU time and syncs per block, which costs the loop next to nothing.
    # 1: every block a calibration block. With --ab, each round of four blocks holds one.
    calib_every: int = _option(4, "without --ab, one block in N is a calibration block, timed step by step; the "
                               "others are only counted (1: every block)", (1, 1_000_000))
    # Warm-up: at least this many steps, then until two 10-step windows agree within 10% or the
    # most is spent.
    warmup_steps: int = _option(30, "fewest warm-up steps; then until step times settle", (0, 1_000_000))
    warmup_max_steps: int = _option(300, "most warm-up steps", (0, 10_000_000))
    # Profiled steps (with stacks); 0: no trace.
    profile_steps: int = _option(5, "steps captured with torch.profiler (0: none)", (0, 1000))
    # Measured blocks before the capture (whole rounds with --ab): the loop before it, against the
    # blocks after it, says whether the capture left anything behind. 0: the capture right after
    # the warm-up, nothing to compare with.
    capture_after_blocks: int = _option(8, "measured blocks before the capture (whole rounds with --ab), to compare "
                                        "the loop before and after it (0: capture right after the warm-up)",
                                        (0, 1_000_000))
    # Unmeasured steps after the capture, while the profiler's teardown fades.
    settle_steps: int = _option(10, "unmeasured steps after the capture", (0, 1_000_000))
    seed: int = _option(1, "the A/B's block orders and bootstrap", (0, 2**63 - 1))
    bootstrap: int = _option(2000, "resamples (2000 or more)", (2000, 1_000_000))
    window_rounds: int = _option(10, "rounds per window of the tax over time", (2, 1_000_000))
    # Steps the writer may fall behind by before a new segment's steps are dropped (and counted).
    queue_size: int = _option(65536, "steps the writer may fall behind by before it drops (and counts) them",
                              (1, 100_000_000))
    # The GPU's time is read over spans of steps at least this long (an event at the end of the
    # first step that ends this long after the previous event, and with an A/B at each block's
    # end). An event costs the loop's thread tens of microseconds on a VM: once a millisecond step
    # it would cost several percent.
    gpu_span_ms: float = _option(100.0, "time the GPU over spans of steps at least MS long, one CUDA event each "
                                 "(0: every step)", (0, 60000), "MS")
    trace_gz: bool = _option(False, "write the trace gzipped", unit="")
    # No summary and no "no CUDA" note on stderr (a benchmark attaching many times); dropped
    # records and failed writes are still said.
    quiet: bool = _option(False, "no summary on stderr at the end", unit="")

    def check(self) -> None:
        """Raises ValueError naming the first option out of range."""
        if self.ab is not None and (not isinstance(self.ab, str) or self.ab_style not in AB_STYLES):
            raise ValueError(f"ab: expected item, defer or defer:FILE:LINE, got {self.ab!r}")
        if self.defer_spec is not None:
            parse_line(self.defer_spec, "ab")
        if isinstance(self.keep, str) or not isinstance(self.keep, (list, tuple)):
            raise ValueError(f"keep: expected a list of FILE:LINE, got {self.keep!r}")
        self.keep = tuple(self.keep)
        for kept in self.keep:
            parse_line(kept, "keep")
        if self.keep and self.ab_style != "defer":
            raise ValueError(f"keep: only with --ab defer (it names lines defer must not pick), got {self.keep[0]!r}")
        if self.keep and self.ab != "defer":
            raise ValueError(f"keep: --ab {self.ab} names its line already; --keep is for --ab defer's own pick")
        for f in fields(self):
            bounds, unit, value = f.metadata.get("bounds"), f.metadata.get("unit"), getattr(self, f.name)
            if bounds is None:
                continue
            low, high = bounds
            if unit == "MS":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                    raise ValueError(f"{f.name}: expected a number of milliseconds from {low} to {high}, got {value!r}")
            elif not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{f.name}: expected an integer from {low} to {high}, got {value!r}")
        if self.warmup_max_steps < self.warmup_steps:
            raise ValueError(
                f"warmup_max_steps ({self.warmup_max_steps}) is below warmup_steps ({self.warmup_steps})")

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)

    @property
    def ab_style(self) -> Optional[str]:
        """The A/B's treatment style: item, defer (for defer and defer:FILE:LINE), or None."""
        if not isinstance(self.ab, str):
            return None
        return "defer" if self.ab == "defer" or self.ab.startswith("defer:") else self.ab

    @property
    def defer_spec(self) -> Optional[str]:
        """FILE:LINE as --ab defer:FILE:LINE gives it; None for --ab defer or no defer."""
        ab = self.ab
        return ab[len("defer:"):] if isinstance(ab, str) and ab.startswith("defer:") else None


def parse_line(text: str, option: str) -> Tuple[str, int]:
    """FILE:LINE as (FILE, LINE); ValueError naming the option where it is not one."""
    file, _, line = text.rpartition(":") if isinstance(text, str) else ("", "", "")
    if not file or not line.isdigit() or int(line) < 1:
        raise ValueError(f"{option}: expected FILE:LINE (a file and a line number from 1), got {text!r}"
                         + (" (--ab defer:FILE:LINE)" if option == "ab" else ""))
    return file, int(line)
