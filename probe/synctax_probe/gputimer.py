"""GPU step times from CUDA events, without a sync: an event recorded on the current stream at the
end of a step once a span's time has passed since the previous event, and the time between
consecutive events read with query() once the GPU has passed them, a few spans later. Each step of
a span gets the span's time over its steps. Events come from a fixed pool, so a span allocates
none, and the loop's side is one call a span, not one a step."""
from __future__ import annotations

from collections import deque
from typing import Any, Deque, Dict, Optional, Tuple

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
    """mark(n) at the end of the loop's n-th step (n steps done) ends a span there. Resolved spans
    go to `spans` as (first step, end step, ms per step or None), in order and without gaps from
    the step the timer started at; `resolved` is the end step of the last one (the loop's thread
    appends, the writer's thread reads and pops)."""

    def __init__(self, torch, first_step: int, pool: int = POOL):
        self._cuda = torch.cuda
        # torch.cuda.current_stream() makes a Stream object on each call (several microseconds);
        # the current stream's identity is cheaper to read, and its Stream object is kept.
        self._current_key = getattr(torch._C, "_cuda_getCurrentStream", None)
        self._device = getattr(torch._C, "_cuda_getDevice", None)
        self._streams: Dict[Any, Any] = {}
        self._free = deque(_pool(torch, pool))
        # Spans whose end event the GPU has not been seen to pass, in order: (end step, event).
        self._pending: Deque[Tuple[int, Any]] = deque()
        self._prev: Optional[Tuple[int, Any]] = None  # the last resolved span's end and its event
        self._start = first_step  # where the next resolved span starts
        self.spans: Deque[Tuple[int, int, Optional[float]]] = deque()
        self.resolved = first_step
        self.missed = 0  # steps whose time could not be kept (the GPU was a pool of spans behind)

    def mark(self, n: int) -> None:
        """At the end of step n - 1: a span ends here; spans the GPU has passed are resolved."""
        if self._pending and self._pending[-1][0] >= n:
            return  # a span already ends here
        if not self._free:
            self._give_up_oldest_span()
        event = self._free.popleft()
        event.record(self._stream())
        self._pending.append((n, event))
        self.poll()

    def _give_up_oldest_span(self) -> None:
        """The GPU is a whole pool of spans behind: the oldest span's steps go out untimed rather
        than wait for them; its end event stays as the next span's start."""
        n, event = self._pending.popleft()
        self.missed += n - self._start
        if self._prev is not None:
            self._free.append(self._prev[1])
            self._prev = (n, event)
        else:
            self._free.append(event)  # no span before it: the next one has no start either
        self._add_span(n, None)

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
        two queries and a backlog (after a stall) drains within a few spans. The span just
        recorded is left for later: the GPU is rarely past it."""
        pending = self._pending
        for _ in range(2):
            if len(pending) < 2 or not pending[0][1].query():
                return
            self._resolve(*pending.popleft())

    def finish(self) -> None:
        """After the loop: the rest, waiting for the events where needed (the loop is over)."""
        while self._pending:
            n, event = self._pending.popleft()
            try:
                event.synchronize()
            except Exception:
                if self._prev is not None:
                    self._free.append(self._prev[1])
                self._prev = None
                self._free.append(event)
                self._add_span(n, None)
                continue
            self._resolve(n, event)

    def _resolve(self, n: int, event) -> None:
        ms = None
        prev = self._prev
        if prev is not None:
            try:
                ms = prev[1].elapsed_time(event) / (n - self._start)
            except RuntimeError:
                ms = None
            self._free.append(prev[1])
        self._prev = (n, event)
        self._add_span(n, ms)

    def _add_span(self, n: int, ms: Optional[float]) -> None:
        if n > self._start:
            self.spans.append((self._start, n, ms))
        self._start = n
        self.resolved = n
