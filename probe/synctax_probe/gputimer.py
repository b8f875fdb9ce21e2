"""GPU step times from CUDA events, without a sync: an event recorded on the current stream at the
end of every `every`-th step, and the time between consecutive ones read with query() once the GPU
has passed them, a few steps later. Each step of a span gets the span's time over its steps (with
every=1, its own). Events come from a fixed pool, so a step allocates none."""
from __future__ import annotations

from collections import deque
from typing import Callable, Deque, Optional, Tuple

POOL = 64
# The events outlive an attach: making a CUDA event costs far more than recording one (on a VM,
# up to a millisecond), so each device's pool is made once per process, each event recorded
# once so that CUDA makes it then, not in a measured step.
_POOLS: dict = {}


def _pool(torch, size: int) -> list:
    device = torch.cuda.current_device()
    events = _POOLS.setdefault(device, [])
    while len(events) < size:
        event = torch.cuda.Event(enable_timing=True)
        event.record()
        events.append(event)
    return events


class GpuTimer:
    def __init__(self, torch, emit: Callable[[tuple, Optional[float]], None], every: int = 1, pool: int = POOL):
        self._cuda = torch.cuda
        # torch.cuda.current_stream() makes a Stream object on each call (several microseconds);
        # the current stream's identity is cheaper to read, and its Stream object is kept.
        self._current_key = getattr(torch._C, "_cuda_getCurrentStream", None)
        self._device = getattr(torch._C, "_cuda_getDevice", None)
        self._streams = {}
        self._free = deque(_pool(torch, pool))
        self._every = max(1, every)
        self._count = 0
        # Steps waiting for their span's event, in order: (step, event or None, record).
        self._pending: Deque[Tuple[int, object, tuple]] = deque()
        self._events = 0  # pending entries that hold an event
        self._prev: Optional[Tuple[int, object]] = None  # the last resolved span's end and its event
        self._emit = emit
        self.missed = 0  # steps whose time could not be kept (the GPU was a pool of spans behind)

    def mark(self, step: int, record: tuple, span_end: bool = False) -> None:
        """At a step's end: a span's last step puts its event into the stream; spans whose events
        the GPU has passed go out with their GPU time. span_end ends the span at this step (a
        block's last step: no span reaches across two blocks)."""
        self._count += 1
        if self._count < self._every and not span_end:
            self._pending.append((step, None, record))
            return
        self._count = 0
        if not self._free:
            self._give_up_oldest_span()
        event = self._free.popleft()
        event.record(self._stream())
        self._pending.append((step, event, record))
        self._events += 1
        self.poll()

    def _give_up_oldest_span(self) -> None:
        """The GPU is a whole pool of spans behind: the oldest span's steps go out untimed rather
        than wait for them."""
        pending = self._pending
        while pending:
            step, event, record = pending.popleft()
            self.missed += 1
            self._emit(record, None)
            if event is not None:
                # The span's end stays as the next span's start; the event before it is freed.
                self._events -= 1
                if self._prev is not None:
                    self._free.append(self._prev[1])
                    self._prev = (step, event)
                else:
                    self._free.append(event)
                return

    def _stream(self):
        if self._current_key is not None and self._device is not None:
            try:
                key = self._current_key(self._device())
                stream = self._streams.get(key)
                if stream is None:
                    if len(self._streams) >= 64:
                        self._streams.clear()
                    stream = self._streams[key] = self._cuda.current_stream()
                return stream
            except Exception:
                self._current_key = None
        return self._cuda.current_stream()

    def poll(self) -> None:
        """Resolves the oldest spans the GPU has passed: two at most, so that a span costs one or
        two queries and a backlog (after a stall) drains within a few spans."""
        for _ in range(2):
            if self._events < 2:
                return  # the span just recorded is left for later: the GPU is rarely past it
            i, first = 0, None
            for entry in self._pending:
                if entry[1] is not None:
                    first = entry
                    break
                i += 1
            if not first[1].query():
                return
            self._resolve_span(i + 1)

    def finish(self) -> None:
        """After the loop: the rest, waiting for the events where needed (the loop is over); steps
        after the last span's end go out untimed."""
        while self._events:
            i = 0
            for entry in self._pending:
                if entry[1] is not None:
                    break
                i += 1
            try:
                self._pending[i][1].synchronize()
            except Exception:
                for _ in range(i + 1):
                    step, event, record = self._pending.popleft()
                    if event is not None:
                        self._events -= 1
                    self._emit(record, None)
                continue
            self._resolve_span(i + 1)
        while self._pending:
            self._emit(self._pending.popleft()[2], None)

    def _resolve_span(self, n: int) -> None:
        """The first n pending steps end with a passed event: each goes out with the span's time
        per step, known where the span starts at the previous event."""
        pending = self._pending
        end_step, end_event, _ = pending[n - 1]
        gpu_ms = None
        prev = self._prev
        if prev is not None:
            if prev[0] == end_step - n:
                try:
                    gpu_ms = prev[1].elapsed_time(end_event) / n
                except RuntimeError:
                    gpu_ms = None
            self._free.append(prev[1])
        self._prev = (end_step, end_event)
        self._events -= 1
        for _ in range(n):
            self._emit(pending.popleft()[2], gpu_ms)
