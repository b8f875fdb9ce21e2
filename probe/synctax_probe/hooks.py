"""The patched functions: every one set through Patches, so that detach puts each back as it was.

Each wrapper's fast path is an attribute test or two before the original call; timing and the
site look-up happen only where a sync can happen (a CUDA tensor, or any tensor where there is no
CUDA and the ops that would sync on a GPU are listed anyway)."""
from __future__ import annotations

import functools
import os
import sys
from typing import Callable, Optional
from time import perf_counter_ns as ns

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


def install(probe, torch, patches: Patches) -> None:
    p = probe
    T = torch.Tensor
    cpu_mode = p.cpu_mode
    orig_item = T.item

    torch_dir = os.path.join(os.path.dirname(os.path.abspath(torch.__file__)), "")
    getframe = sys._getframe

    def tensor_op(orig, op: str, on_cpu: bool):
        record_cpu = cpu_mode and on_cpu

        @functools.wraps(orig)
        def wrapper(self, *args, **kwargs):
            cuda = self.is_cuda
            if p.busy or not (cuda or record_cpu):
                return orig(self, *args, **kwargs)
            if not cuda and getframe(1).f_code.co_filename.startswith(torch_dir):
                # Without a device, torch's own reads of its CPU bookkeeping (Adam's step counts)
                # are no place a GPU run would wait: its counters stay on the CPU there too.
                return orig(self, *args, **kwargs)
            t0 = ns()
            result = orig(self, *args, **kwargs)
            p.sync(op, t0, ns())
            return result
        return wrapper

    for name, op, on_cpu in (("item", "item", True), ("tolist", "tolist", True), ("cpu", "cpu", False),
                             ("numpy", "numpy", False), ("nonzero", "nonzero", True),
                             ("__bool__", "bool", True), ("__float__", "float", True), ("__int__", "int", True)):
        patches.set(T, name, tensor_op(getattr(T, name), op, on_cpu))

    orig_to = T.to
    device_types = (str, torch.device)

    @functools.wraps(orig_to)
    def to(self, *args, **kwargs):
        if p.busy or not self.is_cuda:
            return orig_to(self, *args, **kwargs)
        target, non_blocking = _to_target(args, kwargs, device_types, T)
        if target is None or non_blocking or torch.device(target).type != "cpu":
            return orig_to(self, *args, **kwargs)
        t0 = ns()
        result = orig_to(self, *args, **kwargs)
        p.sync("to", t0, ns())
        return result
    patches.set(T, "to", to)

    orig_nonzero = torch.nonzero

    @functools.wraps(orig_nonzero)
    def nonzero(*args, **kwargs):
        t = args[0] if args else kwargs.get("input")
        if p.busy or not isinstance(t, T) or not (t.is_cuda or cpu_mode):
            return orig_nonzero(*args, **kwargs)
        t0 = ns()
        result = orig_nonzero(*args, **kwargs)
        p.sync("nonzero", t0, ns())
        return result
    patches.set(torch, "nonzero", nonzero)

    orig_synchronize = torch.cuda.synchronize
    p.synchronize = orig_synchronize

    @functools.wraps(orig_synchronize)
    def synchronize(*args, **kwargs):
        if p.busy:
            return orig_synchronize(*args, **kwargs)
        t0 = ns()
        result = orig_synchronize(*args, **kwargs)
        p.sync("synchronize", t0, ns())
        return result
    patches.set(torch.cuda, "synchronize", synchronize)

    _install_backward(p, torch, patches)
    _install_optimizer(p, torch, patches)
    p.added_item = orig_item


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


def _install_backward(p, torch, patches: Patches) -> None:
    """B starts at the step's first backward(): one outside the optimizer's step (an LBFGS
    closure's is part of O) and not the probe's own. With an A/B, the tensor it runs on is the
    loss the added item reads. A counted block's steps take torch.autograd.backward as it was, or
    with an A/B a wrapper that only keeps the step's first loss (Probe._begin swaps them: a module's
    attribute, set at no cost to the loop)."""
    def wrap(orig, keep_loss):
        @functools.wraps(orig)
        def backward(*args, **kwargs):
            if p.b_start or p.o_depth or p.busy:
                return orig(*args, **kwargs)
            p.b_start = ns()
            if keep_loss:
                p.loss = loss_of_tensors(args, kwargs)
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
        if p.loss is None and not p.busy:
            p.loss = loss_of_tensors(args, kwargs)
        return orig(*args, **kwargs)

    p.backward_timed = wrap(orig, p.opts.ab is not None)
    p.backward_counted = keep_loss if p.opts.ab is not None else orig
    patches.set(torch.autograd, "backward", p.backward_timed)


def _install_optimizer(p, torch, patches: Patches) -> None:
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
            if opt is p.count_opt:  # a counted block's step
                result = orig(opt, *args, **kwargs)
                p.counted_step_end()
                return result
            if p.o_depth or p.busy:
                p.o_depth += 1
                try:
                    return orig(opt, *args, **kwargs)
                finally:
                    p.o_depth -= 1
            loop = p.loop_optimizer
            if loop is None or loop() is not opt:
                if not p.is_loop_optimizer(opt):
                    # Another optimizer's step (a GAN's second): timed within the loop's phase it
                    # falls in, its syncs too (o_depth keeps backward() inside it from starting B).
                    p.o_depth, p.o_other = 1, True
                    try:
                        return orig(opt, *args, **kwargs)
                    finally:
                        p.o_depth, p.o_other = 0, False
                        p.other_optimizer_steps += 1
                if opt is p.count_opt:  # it took over the loop's steps inside a counted block
                    result = orig(opt, *args, **kwargs)
                    p.counted_step_end()
                    return result
            ends = None  # a closure's first return, where the step was given one
            if args or kwargs:  # step(closure): nothing looked up or made for a plain step()
                closure = kwargs.get("closure", args[0] if args else None)
                if callable(closure):
                    ends = []
                    args, kwargs = first_call_timed(closure, args, kwargs, ends)
            p.o_depth = 1
            t0 = ns()
            try:
                result = orig(opt, *args, **kwargs)
            finally:
                p.o_depth = 0
            p.step_end(ends[0] if ends else t0, ns())  # O from the closure's first return, if any
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
            p.o_depth = 0
            try:
                return closure(*a, **k)
            finally:
                ends.append(ns())
                p.o_depth = 1

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
