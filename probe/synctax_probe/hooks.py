"""The patched functions: every one set through Patches, so that detach puts each back as it was.

Each wrapper's fast path is an attribute test or two before the original call; timing and the
site look-up happen only where a sync can happen (a CUDA tensor, or any tensor where there is no
CUDA and the ops that would sync on a GPU are listed anyway)."""
from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass, field
from time import perf_counter_ns as ns
from typing import Any, Callable, Dict, Optional, Protocol

from .defer import DEFERRABLE

_MISSING = object()
_MARK = "__synctax_probe__"


class Patches:
    def __init__(self):
        self._saved = []  # (owner, name, original in owner's own dict or _MISSING)

    def set(self, owner, name: str, new) -> None:
        self._saved.append((owner, name, owner.__dict__.get(name, _MISSING)))
        setattr(owner, name, new)

    def restore(self, which: Optional[Callable[[object, str], bool]] = None) -> None:
        """Puts back every patched function, latest first, or those `which(owner, name)` picks."""
        kept = []
        while self._saved:
            owner, name, original = self._saved.pop()
            if which is not None and not which(owner, name):
                kept.append((owner, name, original))
            elif original is _MISSING:
                if name in owner.__dict__:
                    delattr(owner, name)
            else:
                setattr(owner, name, original)
        self._saved = kept[::-1]


@dataclass
class HookState:
    """What the patched functions read and write at each call. The probe owns it and sets it
    between steps; the hooks see nothing else of the probe but LoopEvents."""

    cpu_mode: bool = False
    """No CUDA device: the ops that would sync on a GPU are listed for CPU tensors too."""
    keep_loss: bool = False
    """An A/B adds an item: the step's first backward() keeps its tensor in `loss` for it."""
    defers: bool = False
    """--ab defer runs: the deferrable reads' wrappers look at `deferring` (else they never do)."""
    deferring: bool = False
    """A defer block of --ab defer is under way: deferrable reads go to LoopEvents.defer."""
    busy: bool = False
    """The probe's own work is under way: every hook calls straight through, records nothing."""
    b_start: int = 0
    """The clock time the step's first backward() started (0: none yet this step)."""
    o_depth: int = 0
    """Optimizer steps under way, nested (a backward() inside one does not start B)."""
    o_other: bool = False
    """The optimizer step under way is another's than the loop's (its syncs stay in F or B)."""
    loss: Any = None
    """The step's first loss, kept for the A/B's added item (None: none, or forgotten)."""
    loop_optimizer: Any = None
    """A weak reference to the loop's optimizer (None until the first step)."""
    count_opt: Any = None
    """In a counted block, the loop's optimizer: its step only counts the step (else None)."""
    other_optimizer_steps: int = 0
    """Steps of another optimizer than the loop's (a GAN's second)."""
    synchronize: Any = None
    """torch.cuda.synchronize as it was: the probe's own drains call it."""
    added_item: Any = None
    """Tensor.item as it was: the A/B's added item calls it."""
    backward_timed: Any = None
    """torch.autograd.backward for timed steps: starts B, keeps the loss where an A/B runs."""
    backward_counted: Any = None
    """torch.autograd.backward for counted blocks' steps: only keeps the loss (or the original)."""
    originals: Dict[str, Callable[..., Any]] = field(default_factory=dict)
    """The patched Tensor reads as they were, by op (item, float, ...): what deferred reads call."""


class LoopEvents(Protocol):
    """What the hooks tell the probe: a sync's wait, and the ends of the loop's steps."""

    def sync(self, op: str, t0: int, t1: int, result: Any = None) -> None: ...

    def defer(self, op: str, tensor: Any, orig: Callable[[Any], Any]) -> Any: ...

    def step_end(self, t0: int, t1: int) -> None: ...

    def counted_step_end(self) -> None: ...

    def is_loop_optimizer(self, opt: Any) -> bool: ...


def install(h: HookState, events: LoopEvents, torch, patches: Patches) -> None:
    """Patches torch's syncing calls, backward() and the optimizers' step(): the wrappers read and
    write `h` and tell `events` of each sync and step end."""
    T = torch.Tensor
    cpu_mode = h.cpu_mode
    orig_item = T.item
    sync = events.sync
    defer = events.defer

    torch_dir = os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "")
    getframe = sys._getframe

    def tensor_op(orig, op: str, on_cpu: bool):
        record_cpu = cpu_mode and on_cpu
        deferrable = h.defers and op in DEFERRABLE  # decided here: no lookup a call where nothing defers

        @functools.wraps(orig)
        def wrapper(self, *args, **kwargs):
            cuda = self.is_cuda
            if h.busy or not (cuda or record_cpu):
                return orig(self, *args, **kwargs)
            if not cuda and getframe(1).f_code.co_filename.startswith(torch_dir):
                # Without a device, torch's own reads of its CPU bookkeeping (Adam's step counts)
                # are no place a GPU run would wait: its counters stay on the CPU there too.
                return orig(self, *args, **kwargs)
            if deferrable and h.deferring and not args and not kwargs:
                return defer(op, self, orig)
            t0 = ns()
            result = orig(self, *args, **kwargs)
            sync(op, t0, ns(), result)
            return result
        return wrapper

    for name, op, on_cpu in (("item", "item", True), ("tolist", "tolist", True), ("cpu", "cpu", False),
                             ("numpy", "numpy", False), ("nonzero", "nonzero", True),
                             ("__bool__", "bool", True), ("__float__", "float", True), ("__int__", "int", True)):
        h.originals[op] = getattr(T, name)
        patches.set(T, name, tensor_op(h.originals[op], op, on_cpu))

    orig_to = T.to
    device_types = (str, torch.device)

    @functools.wraps(orig_to)
    def to(self, *args, **kwargs):
        if h.busy or not self.is_cuda:
            return orig_to(self, *args, **kwargs)
        target, non_blocking = _to_target(args, kwargs, device_types, T)
        if target is None or non_blocking or torch.device(target).type != "cpu":
            return orig_to(self, *args, **kwargs)
        t0 = ns()
        result = orig_to(self, *args, **kwargs)
        sync("to", t0, ns())
        return result
    patches.set(T, "to", to)

    orig_nonzero = torch.nonzero

    @functools.wraps(orig_nonzero)
    def nonzero(*args, **kwargs):
        t = args[0] if args else kwargs.get("input")
        if h.busy or not isinstance(t, T) or not (t.is_cuda or cpu_mode):
            return orig_nonzero(*args, **kwargs)
        t0 = ns()
        result = orig_nonzero(*args, **kwargs)
        sync("nonzero", t0, ns())
        return result
    patches.set(torch, "nonzero", nonzero)

    orig_synchronize = torch.cuda.synchronize
    h.synchronize = orig_synchronize

    @functools.wraps(orig_synchronize)
    def synchronize(*args, **kwargs):
        if h.busy:
            return orig_synchronize(*args, **kwargs)
        t0 = ns()
        result = orig_synchronize(*args, **kwargs)
        sync("synchronize", t0, ns())
        return result
    patches.set(torch.cuda, "synchronize", synchronize)

    _install_backward(h, torch, patches)
    _install_optimizer(h, events, torch, patches)
    h.added_item = orig_item


def _to_target(args, kwargs, device_types, tensor_type):
    """Where Tensor.to sends the tensor (None: same device) and whether non_blocking was asked."""
    target = kwargs.get("device")
    non_blocking = kwargs.get("non_blocking", False)
    if args:
        first = args[0]
        if isinstance(first, device_types):
            target = first
            if len(args) > 2:
                non_blocking = args[2]
        elif isinstance(first, tensor_type):
            target = first.device
            if len(args) > 1:
                non_blocking = args[1]
        elif isinstance(first, int) and not isinstance(first, bool):
            target = "cuda"
    return target, bool(non_blocking)


def _install_backward(h: HookState, torch, patches: Patches) -> None:
    """B starts at the step's first backward(): one outside the optimizer's step (an LBFGS
    closure's is part of O) and not the probe's own. With an A/B, the tensor it runs on is the
    loss the added item reads. A counted block's steps take torch.autograd.backward as it was, or
    with an A/B a wrapper that only keeps the step's first loss (the probe swaps them between
    blocks: a module's attribute, set at no cost to the loop)."""
    def wrap(orig, keep_loss):
        @functools.wraps(orig)
        def backward(*args, **kwargs):
            if h.b_start or h.o_depth or h.busy:
                return orig(*args, **kwargs)
            h.b_start = ns()
            if keep_loss:
                h.loss = loss_of_tensors(args, kwargs)
            return orig(*args, **kwargs)
        return backward

    def loss_of_tensors(args, kwargs):
        tensors = args[0] if args else kwargs.get("tensors")
        if isinstance(tensors, torch.Tensor):
            return tensors
        if isinstance(tensors, (list, tuple)) and tensors and isinstance(tensors[0], torch.Tensor):
            return tensors[0]
        return None

    # Tensor.backward calls torch.autograd.backward, looked up on the module at each call (torch
    # 1.13 and 2.x): one wrapper there sees both, with one layer of Python less on the loop's path.
    orig = torch.autograd.backward

    @functools.wraps(orig)
    def keep_loss(*args, **kwargs):
        if h.loss is None and not h.busy:
            h.loss = loss_of_tensors(args, kwargs)
        return orig(*args, **kwargs)

    h.backward_timed = wrap(orig, h.keep_loss)
    h.backward_counted = keep_loss if h.keep_loss else orig
    patches.set(torch.autograd, "backward", h.backward_timed)


def _install_optimizer(h: HookState, events: LoopEvents, torch, patches: Patches) -> None:
    """The optimizer's step ends a step. Each class that defines a step gets it wrapped once, on
    top of torch's own profiling wrapper (which torch adds at the first instance and marks
    `hooked`): classes already used when attaching, and the others as their first instance is
    made. Torch 1.13 and 2.x both add that wrapper in Optimizer.__init__."""
    Optimizer = torch.optim.Optimizer

    def wrap_step(cls) -> None:
        orig = cls.__dict__.get("step")
        if orig is None or getattr(orig, _MARK, False) or cls is Optimizer:
            return

        @functools.wraps(orig)
        def step(opt, *args, **kwargs):
            if opt is h.count_opt:  # a counted block's step
                result = orig(opt, *args, **kwargs)
                events.counted_step_end()
                return result
            if h.o_depth or h.busy:
                h.o_depth += 1
                try:
                    return orig(opt, *args, **kwargs)
                finally:
                    h.o_depth -= 1
            loop = h.loop_optimizer
            if loop is None or loop() is not opt:
                if not events.is_loop_optimizer(opt):
                    # Another optimizer's step (a GAN's second): timed within the loop's phase it
                    # falls in, its syncs too (o_depth keeps backward() inside it from starting B).
                    h.o_depth, h.o_other = 1, True
                    try:
                        return orig(opt, *args, **kwargs)
                    finally:
                        h.o_depth, h.o_other = 0, False
                        h.other_optimizer_steps += 1
                if opt is h.count_opt:  # it took over the loop's steps inside a counted block
                    result = orig(opt, *args, **kwargs)
                    events.counted_step_end()
                    return result
            ends = None  # a closure's first return, where the step was given one
            if args or kwargs:  # step(closure): nothing looked up or made for a plain step()
                closure = kwargs.get("closure", args[0] if args else None)
                if callable(closure):
                    ends = []
                    args, kwargs = first_call_timed(closure, args, kwargs, ends)
            h.o_depth = 1
            t0 = ns()
            try:
                result = orig(opt, *args, **kwargs)
            finally:
                h.o_depth = 0
            events.step_end(ends[0] if ends else t0, ns())  # O from the closure's first return, if any
            return result
        setattr(step, _MARK, True)
        patches.set(cls, "step", step)

    def first_call_timed(closure, args, kwargs, ends):
        """A step given a closure (LBFGS; PyTorch Lightning steps every optimizer so): its first
        call is the step's forward and backward, F and B as in a loop without one (o_depth 0),
        its return time appended to `ends`; O runs from there (LBFGS's later calls included)."""
        def first(*a, **k):
            if ends:
                return closure(*a, **k)
            h.o_depth = 0
            try:
                return closure(*a, **k)
            finally:
                ends.append(ns())
                h.o_depth = 1

        if "closure" in kwargs:
            return args, dict(kwargs, closure=first)
        return (first,) + tuple(args[1:]), kwargs

    def defining_class(cls):
        for klass in cls.__mro__:
            if "step" in klass.__dict__:
                return klass
        return None

    stack, seen = [Optimizer], set()
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                stack.append(sub)
                if getattr(sub.__dict__.get("step"), "hooked", False):
                    wrap_step(sub)

    orig_init = Optimizer.__init__

    @functools.wraps(orig_init)
    def __init__(self, *args, **kwargs):
        orig_init(self, *args, **kwargs)
        klass = defining_class(type(self))
        if klass is not None:
            wrap_step(klass)
    patches.set(Optimizer, "__init__", __init__)
