"""--ab defer: in the A/B's defer blocks, the syncs of one line of the user's code are not waited
for. Each call starts a non-blocking copy of its tensor into pinned memory with an event after it,
and answers with the newest value of an earlier call whose copy has completed: the loop sees that
line's values late (usually by one call). A call with no such value within `lag` calls (the line's
first call, or copies still in flight) waits for its own copy, as the loop waits without the probe,
and is counted. Outside the defer blocks the line's numbers are kept as the loop got them, so that
a defer block's first call answers with the call before it, as the pattern it stands for would.

A value that steers the loop cannot come late honestly: `bool` (if, while, assert on a tensor) and
`nonzero` (a boolean mask's size) are refused, with the reason. Chains of values are kept per
site and per call of it within a step, so that two reads on one line (or a list of metrics read in
a loop) each get their own earlier value."""
from __future__ import annotations

import copy
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

# The ops a deferred line may hold. A CUDA tensor's .numpy() raises: `.cpu().numpy()` defers at
# its .cpu().
DEFERRABLE = ("item", "float", "int", "tolist", "cpu")
_NUMBERS = ("item", "float", "int")  # answers that cannot be changed by the loop: kept as given
REFUSED = {
    "bool": "its value steers the loop (if, while or assert on a tensor): read late, the loop would take "
            "another path",
    "nonzero": "its result's size steers what runs next (nonzero, a boolean mask): it cannot be read late",
    "synchronize": "an explicit synchronize waits for all of the GPU's work: remove it rather than defer it",
    "to": ".to() with its arguments is not deferred by the probe (.cpu() is)",
}
MAX_ELEMENTS = 4096  # a larger tensor's copy is no small read-back: its call waits as before
CALLS_A_STEP = 4096  # more calls of one site in a step (an evaluation loop, no steps) wait as before

# How a call went (Deferrer.call's second answer).
LATE, FIRST, IN_FLIGHT, AS_BEFORE = "late", "first", "in_flight", "as_before"


def refusal(op: str) -> Optional[str]:
    """Why op's syncs cannot be deferred; None where they can."""
    if op in DEFERRABLE:
        return None
    return REFUSED.get(op, f"{op} is not one of the reads the probe defers ({', '.join(DEFERRABLE)})")


# -- the copies: pinned memory and an event on CUDA; a clone without a device; a test's own


class CudaCopies:
    """A copy: a pinned buffer of the tensor's shape and dtype filled by a non-blocking copy, and an
    event recorded after it on the tensor's stream. Buffers and events are kept for the next copies
    once read: no allocation a call in steady state. `empty` and `event` make them (injectable)."""

    def __init__(self, torch, empty: Optional[Callable[[Any, Any], Any]] = None,
                 event: Optional[Callable[[], Any]] = None):
        self._torch = torch
        self._empty = empty or (lambda shape, dtype: torch.empty(shape, dtype=dtype, pin_memory=True))
        self._event = event or torch.cuda.Event
        self._buffers: Dict[Tuple[Any, Any], List[Any]] = {}
        self._events: List[Any] = []

    def prepare(self, events: int) -> None:
        """Makes events ahead (outside the measured blocks: making one costs far more than recording
        it), each recorded once so that CUDA makes it now."""
        while len(self._events) < events:
            event = self._event()
            event.record()
            self._events.append(event)

    def start(self, tensor) -> Tuple[Any, Any]:
        key = (tensor.shape, tensor.dtype)
        free = self._buffers.get(key)
        buffer = free.pop() if free else self._empty(tensor.shape, tensor.dtype)
        buffer.copy_(tensor.detach(), non_blocking=True)
        event = self._events.pop() if self._events else self._event()
        cuda = self._torch.cuda
        if tensor.is_cuda and tensor.get_device() != cuda.current_device():
            event.record(cuda.current_stream(tensor.device))
        else:
            event.record()
        return buffer, event

    def done(self, ticket) -> bool:
        return bool(ticket[1].query())

    def wait(self, ticket) -> None:
        ticket[1].synchronize()

    def value(self, ticket):
        return ticket[0]

    def release(self, ticket) -> None:
        """A copy read (or passed over once complete): its buffer and event for later copies."""
        buffer, event = ticket
        self._buffers.setdefault((buffer.shape, buffer.dtype), []).append(buffer)
        self._events.append(event)


class CpuCopies:
    """Without a device: the copy is a clone, complete at once; what is measured is what deferring
    costs in Python."""

    def prepare(self, events: int) -> None:
        pass

    def start(self, tensor):
        return tensor.detach().clone()

    def done(self, ticket) -> bool:
        return True

    def wait(self, ticket) -> None:
        pass

    def value(self, ticket):
        return ticket

    def release(self, ticket) -> None:
        pass


def make_copies(torch, cpu_mode: bool):
    return CpuCopies() if cpu_mode else CudaCopies(torch)


class _Chain:
    """The values of one site's k-th call in each step: the copies in flight, oldest first, and the
    newest value complete (its call's index among the chain's calls, its step)."""
    __slots__ = ("calls", "pending", "value", "index", "step", "handed")

    def __init__(self) -> None:
        self.calls = 0
        self.pending: Deque[Tuple[int, int, Any]] = deque()
        self.value: Any = None
        self.index = -1  # -1: no value yet
        self.step = 0
        self.handed = False  # the value went to the loop once: a later answer gets a copy of it


class Deferrer:
    """The chains of the deferred sites' values, and what happened to each call in defer blocks."""

    def __init__(self, copies, originals: Dict[str, Callable[[Any], Any]], lag: int):
        self.copies = copies
        self._originals = originals  # op -> the unpatched Tensor method (filled once the hooks are in)
        self.lag = lag
        self._chains: Dict[Tuple[int, int], _Chain] = {}
        self._step_calls: Dict[int, Tuple[int, int]] = {}  # site id -> (step, calls in it so far)
        self.calls = {LATE: 0, FIRST: 0, IN_FLIGHT: 0, AS_BEFORE: 0}  # defer blocks' calls, by how
        self.lag_calls: Dict[int, int] = {}  # late answers by how many calls late
        self.lag_steps: Dict[int, int] = {}  # and by how many steps
        self.error: Optional[str] = None  # why deferring stopped, where a copy failed

    def call(self, site, op: str, tensor, step: int) -> Tuple[Any, str]:
        """A call of a deferred site in a defer block: its answer and how it went (LATE: an earlier
        value; FIRST or IN_FLIGHT: it waited for its own; AS_BEFORE: not deferred, the caller makes
        the call as it was)."""
        chain = self._chain(site.id, step)
        if chain is None or tensor.numel() > MAX_ELEMENTS or (op == "cpu" and tensor.requires_grad):
            self.calls[AS_BEFORE] += 1
            return None, AS_BEFORE
        index = chain.calls
        chain.calls += 1
        self._poll(chain, op)
        if chain.index >= 0 and index - chain.index <= self.lag:
            answer = self._hand(chain)
            chain.pending.append((index, step, self.copies.start(tensor)))
            self.calls[LATE] += 1
            late = index - chain.index
            self.lag_calls[late] = self.lag_calls.get(late, 0) + 1
            steps = step - chain.step
            self.lag_steps[steps] = self.lag_steps.get(steps, 0) + 1
            return answer, LATE
        how = FIRST if chain.index < 0 else IN_FLIGHT
        ticket = self.copies.start(tensor)
        self.copies.wait(ticket)
        # Every copy before it on its stream is complete too: passed over, this call's value kept.
        while chain.pending:
            self.copies.release(chain.pending.popleft()[2])
        self._keep(chain, op, ticket, index, step)
        self.calls[how] += 1
        return self._hand(chain), how

    def saw(self, site, op: str, result, step: int) -> None:
        """A call of a deferred site outside the defer blocks: a number is kept as the loop got it
        (a list or a tensor the loop may change is not: a defer block's first read of one waits)."""
        chain = self._chain(site.id, step)
        if chain is None:
            return
        index = chain.calls
        chain.calls += 1
        if op in _NUMBERS:
            chain.value, chain.index, chain.step, chain.handed = result, index, step, True

    def _chain(self, site_id: int, step: int) -> Optional[_Chain]:
        last = self._step_calls.get(site_id)
        k = last[1] + 1 if last is not None and last[0] == step else 0
        self._step_calls[site_id] = (step, k)
        if k >= CALLS_A_STEP:
            return None
        chain = self._chains.get((site_id, k))
        if chain is None:
            chain = self._chains[(site_id, k)] = _Chain()
        return chain

    def _poll(self, chain: _Chain, op: str) -> None:
        """The copies complete by now, oldest first (a stream completes them in order): the newest
        becomes the chain's value, unless one the loop got since is newer."""
        pending, copies = chain.pending, self.copies
        newest = None
        while pending and copies.done(pending[0][2]):
            if newest is not None:
                copies.release(newest[2])
            newest = pending.popleft()
        if newest is None:
            return
        index, step, ticket = newest
        if index > chain.index:
            self._keep(chain, op, ticket, index, step)
        else:
            copies.release(ticket)

    def _keep(self, chain: _Chain, op: str, ticket, index: int, step: int) -> None:
        buffer = self.copies.value(ticket)
        chain.value = buffer.clone() if op == "cpu" else self._originals[op](buffer)
        chain.index, chain.step, chain.handed = index, step, False
        self.copies.release(ticket)

    def _hand(self, chain: _Chain) -> Any:
        """The chain's value as an answer: itself the first time, a copy after (the loop owns what
        it is given, and may change a list or a tensor)."""
        value = chain.value
        if not chain.handed:
            chain.handed = True
            return value
        if isinstance(value, (int, float, bool)):
            return value
        return value.clone() if hasattr(value, "clone") else copy.deepcopy(value)

    def report(self) -> Dict[str, Any]:
        """What happened to the calls in defer blocks, for ab.json."""
        calls = sum(self.calls.values())
        return {"calls": calls, "late": self.calls[LATE], "waited_first": self.calls[FIRST],
                "waited_in_flight": self.calls[IN_FLIGHT], "not_deferred": self.calls[AS_BEFORE],
                "lag_calls": _quantiles(self.lag_calls), "lag_steps": _quantiles(self.lag_steps),
                "lag_limit_calls": self.lag, "error": self.error}


def _quantiles(counts: Dict[int, int]) -> Optional[Dict[str, int]]:
    """The median and the largest of values given as {value: how often}."""
    total = sum(counts.values())
    if not total:
        return None
    seen, median = 0, None
    for value in sorted(counts):
        seen += counts[value]
        if median is None and 2 * seen >= total:
            median = value
    return {"median": median if median is not None else 0, "max": max(counts)}
