"""What each step of the loop is for: warm-up, measured blocks, the profiled capture and settling
after it, then measured blocks again; with an A/B, blocks in rounds of a seeded random order of the
styles. The capture comes after `capture_after_blocks` blocks (whole rounds with an A/B), so that
the blocks before it show whether it left the loop slower (0: right after the warm-up); while the
loop is still speeding up (its blocks as it is quicker than those before them), it waits, up to
CAPTURE_WAIT times as many blocks, so that a loop still warming up is not read as the capture's."""
from __future__ import annotations

import math
import random
from collections import deque
from typing import Callable, List, Optional

from .options import Options
from .stats import median

WARMUP, PROFILE, SETTLE, BLOCK = "warmup", "profile", "settle", "block"
CALIBRATION = "calib"
NONE = "none"  # the loop as it is, its steps only counted
DEFER = "defer"  # --ab defer's blocks: one line's syncs deferred
AB_STYLES = (NONE, "none_aa", "item", CALIBRATION)  # a round's blocks; --ab defer's with defer for item
BASELINE_STYLES = (NONE, "none_aa")  # the loop as it is, its steps only counted
_WINDOW = 10  # steps per warm-up window
_SETTLED = 0.10  # two windows' medians within 10%
CAPTURE_WAIT = 4  # the capture comes after at most this many times capture_after_blocks blocks

# What happened at a step's end (step_done's answer, bits).
CAPTURE_START, CAPTURE_STOP, BLOCK_END, BLOCK_START = 1, 2, 4, 8


def ab_styles(options: Options) -> tuple:
    """A round's styles: AB_STYLES, the A/B's own style in item's place."""
    return tuple((options.ab_style or "item") if s == "item" else s for s in AB_STYLES)


class Schedule:
    """Advanced once per step by step_done(); `stage`, `block`, `round` and `style` then say what
    the next step is."""

    def __init__(self, options: Options, profiling: bool, speeding_up: Callable[[], bool] = lambda: False):
        self._opts = options
        self._speeding_up = speeding_up
        self._profiling = profiling and options.profile_steps > 0
        self._rng = random.Random(options.seed)
        self.styles = ab_styles(options)
        self.stage = WARMUP
        self.block = -1  # the block under way (-1: none yet)
        self.round: Optional[int] = None
        self.style: Optional[str] = None
        self.steps_in_stage = 0
        self.steps_in_block = 0
        self.block_len = options.block_steps  # the steps of the block under way
        self._step_ns = 0.0  # the loop's time a step, as the last block (or the warm-up) ran
        self.warmup_steps = 0
        self.warmup_settled = False
        self._order: List[str] = []
        self._intervals: deque = deque(maxlen=2 * _WINDOW)
        self.orders: List[List[str]] = []  # every round's order, for the record
        # The first block after the capture (None: no capture taken yet), the blocks it waited past
        # the first point it was due, and whether the loop had stopped speeding up when it came.
        self.capture_block: Optional[int] = None
        self.capture_waited_blocks = 0
        self.capture_loop_settled = True
        self._capture_due = self._profiling
        # Where there is no warm-up, what its end would start starts before the first step.
        self.initial = self._leave_warmup() if options.warmup_max_steps == 0 else 0

    @property
    def ab(self) -> bool:
        return self._opts.ab is not None

    def step_done(self, interval_ns: int, steps: int = 1, block_ns: int = 0) -> int:
        """Moves on by `steps` steps (interval_ns: the last one's host time; block_ns: the block's
        time so far, where one is under way); more than one only inside a block, never past its
        end. Returns what happened at this boundary: CAPTURE_START, CAPTURE_STOP, BLOCK_END and
        BLOCK_START bits (0: nothing)."""
        self.steps_in_stage += steps
        if self.stage == WARMUP:
            self._intervals.append(interval_ns)
            self.warmup_steps += 1
            if self.warmup_steps >= self._opts.warmup_steps and (self._settled()
                                                                 or self.warmup_steps >= self._opts.warmup_max_steps):
                self.warmup_settled = self._settled()
                return self._leave_warmup()
            return 0
        if self.stage == PROFILE:
            if self.steps_in_stage >= self._opts.profile_steps:
                if self._opts.settle_steps == 0:
                    self._resume_blocks()
                    return CAPTURE_STOP | BLOCK_START
                self._enter(SETTLE)
                return CAPTURE_STOP
            return 0
        if self.stage == SETTLE:
            if self.steps_in_stage >= self._opts.settle_steps:
                self._resume_blocks()
                return BLOCK_START
            return 0
        self.steps_in_block += steps
        if self.steps_in_block >= self.block_len:
            if block_ns > 0:
                self._step_ns = block_ns / self.steps_in_block
            if self._capture_due and self.block + 1 >= self._opts.capture_after_blocks and not self._order \
                    and self._capture_now():
                self._enter(PROFILE)
                return BLOCK_END | CAPTURE_START
            self._next_block()
            return BLOCK_END | BLOCK_START
        return 0

    def _capture_now(self) -> bool:
        """At the end of a block (of a round) at or past capture_after_blocks: whether the capture
        starts now, or waits for the loop to stop speeding up."""
        done, least = self.block + 1, self._opts.capture_after_blocks
        settled = not self._speeding_up()
        if not settled and done < CAPTURE_WAIT * least:
            return False
        self._capture_due = False
        self.capture_block = done
        self.capture_loop_settled = settled
        self.capture_waited_blocks = done - self._first_due()
        return True

    @property
    def capture_window_block(self) -> int:
        """The first of the blocks the capture's after-effect is judged against: as many just before
        it as it waits for at the least, so the block number of its wait."""
        return self.capture_waited_blocks

    def _first_due(self) -> int:
        """The block count at which the capture is first due: capture_after_blocks, in whole
        rounds with an A/B."""
        least = self._opts.capture_after_blocks
        if not self.ab:
            return least
        size = len(AB_STYLES)
        return -(-least // size) * size

    def _length(self) -> int:
        """A block's steps: block_steps, or as many as take block_ms at the last known speed."""
        opts = self._opts
        if opts.block_ms <= 0 or self._step_ns <= 0:
            return opts.block_steps
        return max(opts.block_steps, min(1_000_000, math.ceil(opts.block_ms * 1e6 / self._step_ns)))

    def _settled(self) -> bool:
        if len(self._intervals) < 2 * _WINDOW:
            return False
        values = list(self._intervals)
        a, b = median(values[:_WINDOW]), median(values[_WINDOW:])
        return a > 0 and abs(b / a - 1.0) <= _SETTLED

    def _leave_warmup(self) -> int:
        if self._capture_due and self._opts.capture_after_blocks == 0:
            self._capture_due = False
            self.capture_block = 0
            self._enter(PROFILE)
            return CAPTURE_START
        self._start_blocks()
        return BLOCK_START

    def _resume_blocks(self) -> None:
        """After the capture: the blocks go on from where they were (or start, where none ran)."""
        if self.block < 0:
            self._start_blocks()
            return
        self._enter(BLOCK)
        self._next_block()

    def _enter(self, stage: str) -> None:
        self.stage = stage
        self.steps_in_stage = 0

    def _start_blocks(self) -> None:
        if self._intervals:
            self._step_ns = median(list(self._intervals))
        self._enter(BLOCK)
        self.block = -1
        self.round = -1
        self._next_block()

    def _next_block(self) -> None:
        self.block += 1
        self.steps_in_block = 0
        if not self.ab:
            self.round = None
            self.style = CALIBRATION if self.block % self._opts.calib_every == 0 else NONE
            self.block_len = self._length()
            return
        if not self._order:
            self.block_len = self._length()  # one length for the round's blocks: they are compared
            self.round = (self.round if self.round is not None else -1) + 1
            self._order = self._rng.sample(self.styles, len(self.styles))
            self.orders.append(list(self._order))
        self.style = self._order.pop(0)
