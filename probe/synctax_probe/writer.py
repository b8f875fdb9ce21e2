"""The writer thread: the loop hands it records through a bounded queue and never waits for it.

A full queue drops the new record and counts it; the count goes into the end record. The thread
wakes every `interval_s` and turns the records queued by then into lines, yielding the GIL between
batches of a long backlog: a few hand-overs of the GIL per wake, however fast the loop."""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from typing import Callable, Deque, List, Optional, Tuple

_BATCH = 256


class Writer:
    def __init__(self, capacity: int, interval_s: float = 0.1):
        self.capacity = capacity
        self.dropped = 0
        self.written = 0
        self._steps: Deque[tuple] = deque()
        # Blocks are few (one per block of steps) and what the phases file and the A/B stand on:
        # never dropped. Each is summed up here, by summarize, off the loop.
        self._blocks: Deque[tuple] = deque()
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._sinks: List[Tuple[str, Callable]] = []
        self._files = {}
        self._periodic: Optional[Callable[[], None]] = None
        self._failure: Optional[str] = None

    # -- the loop's side: O(1), no lock, no wait
    def put_step(self, record: tuple) -> None:
        if len(self._steps) >= self.capacity:
            self.dropped += 1
            return
        self._steps.append(record)

    def put_block(self, held: tuple) -> None:
        self._blocks.append(held)

    # -- set-up and the thread
    def open(self, steps_path: str, blocks_path: str, phases_path: str, phases_header: str,
             format_step: Callable[[tuple], str], summarize: Callable[[tuple], Tuple[dict, Optional[str]]],
             periodic: Optional[Callable[[], None]] = None) -> None:
        self._files["steps"] = open(steps_path, "w", encoding="utf-8")
        self._files["blocks"] = open(blocks_path, "w", encoding="utf-8")
        self._files["phases"] = open(phases_path, "w", encoding="utf-8")
        self._files["phases"].write(phases_header)
        self._files["phases"].flush()
        self._format_step = format_step
        self._summarize = summarize
        self._periodic = periodic

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
        self._drain(final=True)
        for f in self._files.values():
            try:
                f.close()
            except OSError as e:
                self._failure = self._failure or str(e)
        self._files.clear()
        return self._failure

    def _run(self) -> None:
        last_periodic = time.monotonic()
        while not self._stop.wait(self._interval_s):
            self._drain(final=False)
            if self._periodic is not None and time.monotonic() - last_periodic >= 5.0:
                last_periodic = time.monotonic()
                self._guard(self._periodic)

    def _guard(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as e:  # a full disk must not stop the training loop
            self._failure = self._failure or f"{type(e).__name__}: {e}"

    def _drain(self, final: bool) -> None:
        if not self._files:
            return
        self._guard(lambda: self._drain_steps(final))
        self._guard(self._drain_blocks)

    def _drain_steps(self, final: bool) -> None:
        """Writes the records queued when it was called, not those queued meanwhile: a writer that
        chased the loop's new records would want the GIL back at every one of the loop's torch
        calls (each releases it), and each hand-over costs the loop a thread wake-up."""
        steps, out, fmt = self._steps, self._files["steps"], self._format_step
        left = len(steps)
        if not left:
            return
        while left:
            n = min(left, _BATCH)
            out.write("".join([fmt(steps.popleft()) for _ in range(n)]))
            self.written += n
            left -= n
            if left and not final:
                time.sleep(0)  # a long backlog: the loop's thread takes the GIL back between batches
        out.flush()

    def _drain_blocks(self) -> None:
        blocks = self._blocks
        if not blocks:
            return
        fb, fp = self._files["blocks"], self._files["phases"]
        while blocks:
            block, phases = self._summarize(blocks.popleft())
            fb.write(json.dumps(block, separators=(",", ":")) + "\n")
            if phases:
                fp.write(phases)
        fb.flush()
        fp.flush()
