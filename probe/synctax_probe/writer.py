"""The writer thread: the loop hands it segments of steps (blocks.Segment) and never waits for it.

The thread wakes every `interval_s` and turns the steps recorded by then into lines, as far as
their GPU times are known (GpuTimer.resolved), yielding the GIL between batches of a long backlog:
a few hand-overs of the GIL per wake, however fast the loop. A closed block, once its steps are
written, gets its line in blocks.jsonl (and phases.csv). Where the writer is more than `capacity`
steps behind when a segment starts, that segment's steps are counted as dropped instead of
written (its block line still comes); the count goes into the end record. A counted segment (a
block not timed step by step) has no lines: once closed and its GPU spans read, its steps are
counted as untimed and its block line written."""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from typing import Any, Callable, Deque, Dict, Optional

from .blocks import Segment, block_summary, step_lines

_BATCH = 256
_STEPS_BUFFER = 1 << 20


class Writer:
    def __init__(self, capacity: int, interval_s: float = 0.25):
        self.capacity = capacity
        self.dropped = 0
        self.written = 0
        self.untimed = 0  # the counted blocks' steps
        self.cpu_ns = 0  # the thread's CPU time in its drains while the loop runs (its GIL time, nearly)
        self.run_start = 0
        self.gpu: Any = None  # the probe's GpuTimer, once the GPU is timed
        self._segments: Deque[Segment] = deque()
        self._gpu_span = (0, 0, None)  # the GPU span the last written step fell in
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._files: Dict[str, Any] = {}
        self._periodic: Optional[Callable[[], None]] = None
        self._on_block: Optional[Callable[[dict], None]] = None
        self._failure: Optional[str] = None

    # -- the loop's side: O(1), no lock, no wait
    def put_segment(self, seg: Segment) -> None:
        """A segment starts: the steps before it (seg.first) are recorded."""
        if seg.first - self.written - self.dropped - self.untimed > self.capacity:
            seg.drop = True
        self._segments.append(seg)

    # -- set-up and the thread
    def open(self, steps_path: str, blocks_path: str, phases_path: str, phases_header: str, run_start: int,
             periodic: Optional[Callable[[], None]] = None, on_block: Optional[Callable[[dict], None]] = None) -> None:
        # A buffer that holds a wake's lines: one write a wake, so one hand-over of the GIL, not
        # one every 8 KB (each write lets the loop's thread in, and the writer then waits for it).
        self._files["steps"] = open(steps_path, "w", encoding="utf-8", buffering=_STEPS_BUFFER)
        self._files["blocks"] = open(blocks_path, "w", encoding="utf-8")
        self._files["phases"] = open(phases_path, "w", encoding="utf-8")
        self._files["phases"].write(phases_header)
        self._files["phases"].flush()
        self.run_start = run_start
        self._periodic = periodic
        self._on_block = on_block

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="synctax-probe-writer", daemon=True)
        self._thread.start()

    def close(self) -> Optional[str]:
        """Stops the thread, writes what is left, closes the files. Returns why writing failed, if
        it did."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._guard(lambda: self._drain(final=True))
        for f in self._files.values():
            try:
                f.close()
            except OSError as e:
                self._failure = self._failure or str(e)
        self._files.clear()
        return self._failure

    def _run(self) -> None:
        last_periodic = time.monotonic()
        clock = time.thread_time_ns
        while not self._stop.wait(self._interval_s):
            c0 = clock()
            self._guard(lambda: self._drain(final=False))
            if self._periodic is not None and time.monotonic() - last_periodic >= 5.0:
                last_periodic = time.monotonic()
                self._guard(self._periodic)
            self.cpu_ns += clock() - c0

    def _guard(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as e:  # a full disk must not stop the training loop
            self._failure = self._failure or f"{type(e).__name__}: {e}"

    def _drain(self, final: bool) -> None:
        """Writes the steps recorded when it was called, not those recorded meanwhile: a writer that
        chased the loop's new steps would want the GIL back at every one of the loop's torch calls
        (each releases it), and each hand-over costs the loop a thread wake-up."""
        if not self._files:
            return
        segments, out = self._segments, self._files["steps"]
        gpu = self.gpu
        known = None if final or gpu is None else gpu.resolved  # steps from here wait for their GPU time
        wrote = False
        for seg in list(segments):
            if seg.counted:
                if not self._take_counted(seg, known, final):
                    break
                segments.popleft()
                continue
            closed = seg.closed
            n = seg.steps()
            upto = n if known is None else max(0, min(n, known - seg.first))
            while seg.written < upto:
                i0 = seg.written
                i1 = min(upto, i0 + _BATCH)
                times = self._gpu_times(seg.first + i0, seg.first + i1, gpu)
                if seg.block is not None:
                    seg.gpu.extend(times)
                if seg.drop:
                    self.dropped += i1 - i0
                else:
                    out.write(step_lines(seg, i0, i1, self.run_start, times))
                    self.written += i1 - i0
                    wrote = True
                seg.written = i1
                if i1 < upto and not final:
                    time.sleep(0)  # a long backlog: the loop's thread takes the GIL back between batches
            if seg.written < n or not closed:
                break  # later steps come later
            segments.popleft()
            if seg.block is not None:
                self._write_block(seg)
        if wrote:
            out.flush()

    def _take_counted(self, seg: Segment, known, final: bool) -> bool:
        """A counted segment, once closed and its GPU spans read: its steps counted, its block's
        line written. At the end, one left open is counted as far as it went."""
        n = seg.steps()
        if not final and (not seg.closed or (known is not None and known < seg.first + n)):
            return False
        times = self._gpu_times(seg.first, seg.first + n, self.gpu)
        self.untimed += n
        if seg.closed and seg.block is not None:
            seg.gpu = times
            self._write_block(seg)
        return True

    def _gpu_times(self, a: int, b: int, gpu) -> list:
        """The GPU ms of steps a to b, from the timer's resolved spans (in order, no gaps)."""
        if gpu is None:
            return [None] * (b - a)
        times = []
        span = self._gpu_span
        spans = gpu.spans
        s = a
        while s < b:  # a span at a time: its steps share its time
            while s >= span[1] and spans:
                span = spans.popleft()
            if span[0] <= s < span[1]:
                upto = min(b, span[1])
                times += [span[2]] * (upto - s)
            else:  # before the span (not timed), or past the last one resolved
                upto = min(b, span[0]) if s < span[0] else b
                times += [None] * (upto - s)
            s = upto
        self._gpu_span = span
        return times

    def _write_block(self, seg: Segment) -> None:
        block, phases = block_summary(seg)
        if self._on_block is not None:
            self._on_block(block)
        fb, fp = self._files["blocks"], self._files["phases"]
        fb.write(json.dumps(block, separators=(",", ":")) + "\n")
        fb.flush()
        if phases:
            fp.write(phases)
            fp.flush()
