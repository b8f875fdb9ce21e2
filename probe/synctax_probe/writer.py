"""The writer thread: the loop hands it records through a bounded queue and never waits for it.

A full queue drops the new record and counts it; the count goes into the end record. The thread
wakes every `interval_s`, turns records into lines and yields the GIL between small batches, so
that the loop it shares the interpreter with is held up for tens of microseconds at most."""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from typing import Callable, Deque, List, Optional, Tuple

_BATCH = 64


class Writer:
    def __init__(self, capacity: int, interval_s: float = 0.05):
        self.capacity = capacity
        self.dropped = 0
        self.written = 0
        self._steps: Deque[tuple] = deque()
        # Blocks are few (one per block of steps) and what the phases file and the A/B stand on:
        # never dropped.
        self._blocks: Deque[Tuple[dict, Optional[str]]] = deque()
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

    def put_block(self, record: dict, phases_line: Optional[str]) -> None:
        self._blocks.append((record, phases_line))

    # -- set-up and the thread
    def open(self, steps_path: str, blocks_path: str, phases_path: str, phases_header: str,
             format_step: Callable[[tuple], str], periodic: Optional[Callable[[], None]] = None) -> None:
        self._files["steps"] = open(steps_path, "w", encoding="utf-8")
        self._files["blocks"] = open(blocks_path, "w", encoding="utf-8")
        self._files["phases"] = open(phases_path, "w", encoding="utf-8")
        self._files["phases"].write(phases_header)
        self._files["phases"].flush()
        self._format_step = format_step
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
        steps, out, fmt = self._steps, self._files["steps"], self._format_step
        wrote = False
        while steps:
            lines = []
            for _ in range(_BATCH):
                if not steps:
                    break
                lines.append(fmt(steps.popleft()))
            out.write("".join(lines))
            self.written += len(lines)
            wrote = True
            if not final:
                time.sleep(0)  # lets the loop's thread take the GIL back
        if wrote:
            out.flush()

    def _drain_blocks(self) -> None:
        blocks = self._blocks
        if not blocks:
            return
        fb, fp = self._files["blocks"], self._files["phases"]
        while blocks:
            block, phases = blocks.popleft()
            fb.write(json.dumps(block, separators=(",", ":")) + "\n")
            if phases:
                fp.write(phases)
        fb.flush()
        fp.flush()
