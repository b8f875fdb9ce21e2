"""GPU step times from CUDA events, without a sync: one event recorded at each step's end on the
current stream, and the time between consecutive ones read with query() once the GPU has passed
them, a few steps later. Events come from a fixed pool, so a step allocates none."""
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
    def __init__(self, torch, emit: Callable[[tuple, Optional[float]], None], pool: int = POOL):
        self._cuda = torch.cuda
        # torch.cuda.current_stream() makes a Stream object on each call (several microseconds);
        # the current stream's identity is cheaper to read, and its Stream object is kept.
        self._current_key = getattr(torch._C, "_cuda_getCurrentStream", None)
        self._device = getattr(torch._C, "_cuda_getDevice", None)
        self._streams = {}
        self._free = deque(_pool(torch, pool))
        self._pending: Deque[Tuple[int, object, tuple]] = deque()
        self._prev: Optional[Tuple[int, object]] = None  # the last resolved step and its event
        self._emit = emit
        self.missed = 0  # steps whose event could not be kept (the GPU was a pool behind)

    def mark(self, step: int, record: tuple) -> None:
        """At a step's end: its event goes into the stream; steps whose events the GPU has
        passed go out with their GPU time."""
        if not self._free:
            # The GPU is a whole pool of steps behind: give up the oldest step's time rather
            # than wait for it.
            old_step, old_event, old_record = self._pending.popleft()
            self._free.append(old_event)
            self.missed += 1
            self._emit(old_record, None)
        event = self._free.popleft()
        event.record(self._stream())
        self._pending.append((step, event, record))
        self.poll()

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
        """Resolves the oldest steps the GPU has passed: two at most, so that a step costs one or
        two queries and a backlog (after a stall) drains within a few steps."""
        pending = self._pending
        for _ in range(2):
            if len(pending) < 2:
                return  # the step just recorded is left for a later step: the GPU is rarely past it
            step, event, record = pending[0]
            if not event.query():
                return
            pending.popleft()
            self._resolve(step, event, record)

    def finish(self) -> None:
        """After the loop: the rest, waiting for the events where needed (the loop is over)."""
        while self._pending:
            step, event, record = self._pending.popleft()
            try:
                event.synchronize()
            except Exception:
                self._emit(record, None)
                continue
            self._resolve(step, event, record)

    def _resolve(self, step: int, event, record: tuple) -> None:
        gpu_ms = None
        prev = self._prev
        if prev is not None:
            if prev[0] == step - 1:
                try:
                    gpu_ms = prev[1].elapsed_time(event)
                except RuntimeError:
                    gpu_ms = None
            self._free.append(prev[1])
        self._prev = (step, event)
        self._emit(record, gpu_ms)
