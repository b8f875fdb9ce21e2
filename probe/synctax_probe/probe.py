"""The probe attached to a running loop: the step's state, what happens at a step's end, and the
end of the run."""
from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from time import perf_counter_ns as ns
from typing import Any, Dict, Optional, Sequence

from . import defer, hooks, report
from .blocks import STEP, BlockBook, Segment
from .capture import Capture
from .defersite import DeferSite
from .gputimer import GpuTimer
from .options import Options
from .runfolder import BLOCKS, PHASES, STEPS, TRACE, release
from .schedule import (BLOCK, BLOCK_END, BLOCK_START, CALIBRATION, CAPTURE_START, CAPTURE_STOP, DEFER, PROFILE,
                       Schedule)
from .sites import SiteTable
from .writer import Writer

_PHASE_LETTER = "FBO"
_SYNCS_PER_STEP = 256  # listed in a step's record; more are counted, not listed
_pack = STEP.pack
_NEVER = 1 << 62  # a clock time no step reaches
_CUDA_LOOK_NS = 200_000_000  # how often a script that has not used CUDA yet is looked at again
_TAKE_OVER = 3  # steps in a row of another optimizer, none of the loop's, that make it the loop's


class Probe:
    """The probe attached to one loop. The patched functions' state is `hooks` (hooks.HookState);
    the rest is the probe's own, on the loop's thread unless said."""

    def __init__(self, torch, options: Options, folder: str, info: Dict[str, Any],
                 defer_lines: Sequence[Any] = (None, ())):
        self.torch = torch
        self.opts = options
        self.folder = folder  # the run folder
        self.info = info  # probe.json's record, completed at the end
        self.cpu_mode = not torch.cuda.is_available()  # no device: nothing waits, the syncs are listed
        package_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep
        torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
        self.sites = SiteTable((torch_dir, package_dir))  # every sync's site, its waits
        self.writer = Writer(options.queue_size)  # the writer thread: steps, blocks, phases
        self.book = BlockBook(options.ab is not None)  # blocks' wall times and the A/B's rounds
        self.sched = Schedule(options, profiling=True, speeding_up=self.book.speeding_up)
        self.capture = Capture(torch, os.path.join(folder, TRACE), options.trace_gz)
        self.patches = hooks.Patches()  # every patched function, to put back at the end
        self.hooks = hooks.HookState(cpu_mode=self.cpu_mode, keep_loss=options.ab_style == "item",
                                     defers=options.ab_style == DEFER)
        # --ab defer: the line it defers (defer_lines: the one named, and --keep's) and its values.
        self.defer_site: Optional[DeferSite] = None
        self.deferrer: Optional[defer.Deferrer] = None
        if options.ab_style == DEFER:
            named, kept = defer_lines
            self.defer_site = DeferSite(named, kept, options.quiet)
            self.deferrer = defer.Deferrer(defer.make_copies(torch, self.cpu_mode), self.hooks.originals,
                                           options.defer_lag)
            self.sites.on_new = self.defer_site.on_new
        self._copies_ready = False  # the deferrer's events made (at a block's start, with CUDA in use)
        self.gpu: Optional[GpuTimer] = None  # the GPU's step times, once the script uses CUDA
        self.gpu_from_step: Optional[int] = None  # the step the GPU timer started at
        self.cuda_device: Optional[str] = None  # the device's name
        self.said_no_cuda = False  # the "no CUDA" note was printed
        self._span_ns = int(options.gpu_span_ms * 1e6)
        self._gpu_next = 0  # the clock time after which a step's end ends a GPU span
        # The step under way: its index, its start, the segment it goes into and that segment's
        # bytes' extend, and whether it adds the A/B's item.
        self.step = 0
        self.step_start = ns()
        self.seg: Segment = None  # type: ignore[assignment]  # None until start() opens the first
        self._append: Any = None
        self.inject = False
        # When a step's end does more than record the step: at this step count, or once the
        # clock passes slow_t (the next GPU span's end).
        self.slow_at = 0
        self.slow_t = 0
        self._sched_step = 0  # the steps the schedule has been told of
        self.tid = threading.get_ident()  # the loop's thread: syncs on others are not the loop's
        # A counted block (not timed step by step): the steps left in it, and its length.
        self.countdown = 0
        self._count_len = 0
        self._backward: Any = None  # torch.autograd.backward as the probe last set it
        self.loop_optimizer_changes = 0  # times a new optimizer took over the loop's steps
        self.taken_over_steps = 0  # steps of a new loop optimizer before it took over (not timed)
        self._rival: Any = None  # another optimizer stepping while the loop's does not, and how often
        self._rival_mark = (0, 0)
        self._rival_steps = 0
        self.syncs_total = 0  # the loop's syncs
        self.syncs_unlisted = 0  # those past _SYNCS_PER_STEP in a step: counted, not listed
        self.drains = 0  # the A/B's synchronize at blocks' ends
        self.probe_ms: list = []  # each block's median probe time after a step (the writer's thread)
        self.run_start = ns()  # the clock at start(): steps.jsonl's times count from it
        self.wall_start = time.time()
        self._finished: Optional[Dict[str, Any]] = None  # finish()'s end record, once written

    # -- attach / detach
    def start(self) -> None:
        self.run_start = ns()
        self.writer.open(os.path.join(self.folder, STEPS), os.path.join(self.folder, BLOCKS),
                         os.path.join(self.folder, PHASES), report.phases_header(self.opts), self.run_start,
                         periodic=self.write_sites, on_block=self._block_written)
        self._open_segment(0, self.run_start)
        self.writer.start()
        hooks.install(self.hooks, self, self.torch, self.patches)
        event = self.sched.initial  # without a warm-up, what its end would start starts now
        if event:
            self._boundary(event, ns(), 0)
        self._begin(event, 0)

    def finish(self, outcome: Dict[str, Any]) -> Dict[str, Any]:
        """Puts every patched function back and writes what the run leaves behind. Runs once."""
        if self._finished is not None:
            return self._finished
        h = self.hooks
        h.busy = True
        self.patches.restore()
        self.capture.abandon()
        self.capture.restore_environment()
        if self.gpu is not None:
            self.gpu.finish()
        seg = self.seg
        if seg is not None and seg.counted and not seg.closed:
            seg.count = self._count_len - self.countdown  # the steps it went
        h.count_opt = None
        unfinished = None
        if seg is not None and seg.block is not None and not seg.closed and seg.steps():
            unfinished = dict(seg.block, steps=seg.steps())
        writer_error = self.writer.close()
        self._finished = report.finish(self, outcome, unfinished, writer_error)
        release(self.folder)
        h.loss = None
        return self._finished

    def write_sites(self) -> None:
        report.write_sites(self)

    def _block_written(self, block: dict) -> None:
        """On the writer's thread: a closed block's line, its probe time kept for the end."""
        if block.get("probe_ms") is not None:
            self.probe_ms.append(block["probe_ms"])

    # -- called by the hooks
    def is_loop_optimizer(self, opt) -> bool:
        """Whether opt's step is a step of the loop (called for an optimizer other than the loop's
        known one). The loop's optimizer is the first whose step is seen, until it is freed or
        another steps _TAKE_OVER times with no step of it in between (a new optimizer each epoch,
        or after a restart): that one takes over, and the change is counted. Another optimizer's
        steps meanwhile (a GAN's second) are timed within the phase they fall in and counted."""
        # A weak reference, not id(): a freed optimizer's id can come back as another's.
        loop = self.hooks.loop_optimizer
        current = loop() if loop is not None else None
        if current is None:
            if loop is not None:
                self.loop_optimizer_changes += 1
            self._adopt(opt)
            return True
        mark = (self.step, self.countdown)  # where the loop is: moves with each of its steps
        if self._rival is not None and self._rival() is opt and self._rival_mark == mark:
            self._rival_steps += 1
        else:
            self._rival, self._rival_mark, self._rival_steps = weakref.ref(opt), mark, 1
        if self._rival_steps < _TAKE_OVER:
            return False
        self.loop_optimizer_changes += 1
        self.hooks.other_optimizer_steps -= _TAKE_OVER - 1  # its steps before this one were the loop's
        self.taken_over_steps += _TAKE_OVER - 1
        self._adopt(opt)
        return True

    def _adopt(self, opt) -> None:
        h = self.hooks
        h.loop_optimizer = weakref.ref(opt)
        self._rival = None
        if h.count_opt is not None:  # inside a counted block: its steps are counted from now
            h.count_opt = opt

    def sync(self, op: str, t0: int, t1: int, result: Any = None, site: Any = None) -> None:
        h = self.hooks
        if h.busy or threading.get_ident() != self.tid:
            return
        wait = t1 - t0
        if site is None:
            site = self.sites.site(op)
        if site.defer and result is not None and self.deferrer is not None:
            self.deferrer.saw(site, op, result, self._serial())  # outside a defer block
        site.add(wait)
        self.syncs_total += 1
        seg = self.seg
        if seg.counted:  # no step records: the block's count and waits
            seg.syncs += 1
            seg.wait_ns += wait
            return
        phase = 2 if h.o_depth and not h.o_other else 1 if h.b_start else 0
        extra = seg.extra
        e = extra.get(self.step)
        if e is None:
            e = extra[self.step] = [0, 0, 0, None]
        e[phase] += wait
        entry = (op, site.id, wait, _PHASE_LETTER[phase])
        if e[3] is None:
            e[3] = [entry]
        elif len(e[3]) < _SYNCS_PER_STEP:
            e[3].append(entry)
        else:
            self.syncs_unlisted += 1

    def defer(self, op: str, tensor, orig):
        """A deferrable read in a defer block (HookState.deferring): where it is at the deferred
        line, answered by the Deferrer (late, or after its wait, counted as a sync); else the call as
        it was, its sync recorded."""
        site = self.sites.site(op) if threading.get_ident() == self.tid else None
        deferrer = self.deferrer
        if site is None or not site.defer or deferrer is None:
            t0 = ns()
            result = orig(tensor)
            self.sync(op, t0, ns(), result, site)
            return result
        h = self.hooks
        h.busy = True
        t0 = ns()
        try:
            answer, how = deferrer.call(site, op, tensor, self._serial())
        except Exception as e:  # a copy that fails costs the A/B its answer, never the loop's call
            deferrer.error = f"{type(e).__name__}: {e}"
            assert self.defer_site is not None  # set with the deferrer
            self.defer_site.refuse(f"deferring stopped: {deferrer.error}")
            how = defer.AS_BEFORE
        finally:
            h.busy = False
        t1 = ns()
        seg = self.seg
        if how == defer.LATE:
            seg.deferred += 1
            return answer
        if how == defer.AS_BEFORE:
            t0 = ns()
            answer = orig(tensor)
            t1 = ns()
        else:
            seg.deferred_waits += 1
        self.sync(op, t0, t1, None, site)
        return answer

    def _serial(self) -> int:
        """The loop's steps so far (in a counted block, the steps of it gone by too)."""
        seg = self.seg
        return self.step + (self._count_len - self.countdown if seg is not None and seg.counted else 0)

    def step_end(self, t0: int, t1: int) -> None:
        """The loop's optimizer.step() ran from t0 to t1: the step is over. The loop waits for
        this, so most steps only append their five numbers; the rest (the schedule, a GPU span's
        end, a block's end) comes at the step count or clock time _plan set."""
        h = self.hooks
        x = t1
        if self.inject and h.loss is not None and self._add_item(h.loss):
            x = ns()
        self._append(_pack(self.step_start, h.b_start, t0, t1, x))
        n = self.step = self.step + 1
        h.b_start = 0
        if n >= self.slow_at or t1 >= self.slow_t:
            self._step_boundary(n, x)
        else:
            self.step_start = ns()

    def counted_step_end(self) -> None:
        """A step of a counted block is over: with an A/B, the added item where the block adds it
        (the loss is forgotten in every style alike); the block's end at its last step."""
        h = self.hooks
        loss = h.loss
        if loss is not None:
            h.loss = None
            if self.inject and self._add_item(loss):
                self.seg.added += 1
        left = self.countdown = self.countdown - 1
        if left <= 0:
            t_end = ns()
            self.seg.count = self._count_len
            self._step_boundary(self.step + self._count_len, t_end)

    # -- inside step_end
    def _step_boundary(self, n: int, t_end: int) -> None:
        self.hooks.busy = True
        try:
            sched = self.sched
            seg = self.seg
            block_ns = t_end - seg.t0 if seg.block is not None and seg.t0 is not None else 0
            event = sched.step_done(t_end - self.step_start, n - self._sched_step, block_ns)
            self._sched_step = self.step = n
            gpu = self.gpu
            if gpu is None:
                self._start_gpu(n, t_end)  # the script may have started to use CUDA since
            elif t_end >= self._gpu_next or (event & BLOCK_END and self.opts.ab is not None):
                gpu.mark(n)
                self._gpu_next = t_end + self._span_ns
            if event & BLOCK_START and self.defer_site is not None:
                self._defer_ready(n)
            if event or self.capture.running:
                self._boundary(event, t_end, n)
            self._begin(event, n)
        finally:
            self.hooks.busy = False

    def _defer_ready(self, n: int) -> None:
        """At a block's start: --ab defer's line picked, where it has none yet, and its copies'
        events made once the script uses CUDA (never before: the probe does not start CUDA)."""
        ds, deferrer = self.defer_site, self.deferrer
        assert ds is not None and deferrer is not None  # made together
        if ds.line is None:
            ds.try_pick(self.sites.all(), n)
        if not self._copies_ready and self.gpu is not None:
            self._copies_ready = True
            deferrer.copies.prepare(deferrer.lag + 2)

    def _begin(self, event: int, n: int) -> None:
        """The next step (after n) starts: whether it adds the item, its start (a block's first
        step's is the block's), and when its end has more to do than record it."""
        sched = self.sched
        self.tid = threading.get_ident()
        self.inject = sched.stage == BLOCK and sched.style == "item"
        h = self.hooks
        ds = self.defer_site
        h.deferring = (sched.stage == BLOCK and sched.style == DEFER and ds is not None and ds.line is not None
                       and ds.refused is None)
        h.loss = None
        seg = self.seg
        if seg.counted:
            h.count_opt = h.loop_optimizer()
            self.countdown = self._count_len = sched.block_len - sched.steps_in_block
        else:
            h.count_opt = None
        backward = h.backward_counted if seg.counted else h.backward_timed
        if backward is not self._backward:
            self._backward = self.torch.autograd.backward = backward
        self.step_start = ns()
        if event & BLOCK_START:
            seg.t0 = self.step_start
        self._plan(n, self.step_start)

    def _plan(self, n: int, now: int) -> None:
        """When the next step's end has more to do than record the step."""
        sched = self.sched
        if sched.stage == BLOCK:
            self.slow_at = n + sched.block_len - sched.steps_in_block
        else:
            self.slow_at = n + 1
        if self.gpu is not None:
            self.slow_t = self._gpu_next
        elif not self.cpu_mode:
            self.slow_t = now + _CUDA_LOOK_NS
        else:
            self.slow_t = _NEVER

    def _add_item(self, loss) -> bool:
        """The A/B's added loss.item(); False where the loss cannot be read (the block then runs
        without it)."""
        h = self.hooks
        h.busy = True
        try:
            h.added_item(loss if loss.numel() == 1 else loss.detach().reshape(-1)[0])
        except Exception:
            h.loss = None
            return False
        finally:
            h.busy = False
        return True

    def _start_gpu(self, n: int, t_end: int) -> None:
        torch = self.torch
        if not self.cpu_mode and torch.cuda.is_initialized():
            self.gpu = GpuTimer(torch, n)
            self.gpu.mark(n)  # the first span starts here
            self._gpu_next = t_end + self._span_ns
            self.gpu_from_step = n
            self.writer.gpu = self.gpu
            try:
                self.cuda_device = torch.cuda.get_device_name(torch.cuda.current_device())
            except Exception:
                self.cuda_device = None
            return
        if not self.said_no_cuda:
            self.said_no_cuda = True
            if not self.opts.quiet:
                if self.cpu_mode:
                    print("synctax_probe: no CUDA device: host phases only, no GPU step times; no call waits "
                          "for a device here (the syncs listed are where a GPU run would wait)",
                          file=sys.stderr, flush=True)
                else:
                    print("synctax_probe: CUDA not in use by the script: host phases only, no GPU step times",
                          file=sys.stderr, flush=True)

    def _open_segment(self, n: int, t: int) -> None:
        sched = self.sched
        block = None
        if sched.stage == BLOCK:
            block = {"block": sched.block, "round": sched.round, "style": sched.style, "first_step": n,
                     "t_ms": round((t - self.run_start) * 1e-6, 6),
                     "after_capture": sched.capture_block is not None and sched.block >= sched.capture_block}
            if sched.style == DEFER:  # the line it defers; None: none yet (its round is left out)
                ds = self.defer_site
                block["deferred_site"] = ds.line.name if ds is not None and ds.line is not None else None
        # A block other than a calibration block is only counted, where the loop's optimizer is
        # known (its step's wrapper tells the loop's steps by it).
        loop = self.hooks.loop_optimizer
        counted = block is not None and sched.style != CALIBRATION and loop is not None and loop() is not None
        seg = self.seg = Segment(sched.stage, n, block, counted)
        self._append = seg.rec.extend
        self.writer.put_segment(seg)

    def _boundary(self, event: int, t_end: int, next_step: int) -> None:
        sched = self.sched
        if event & CAPTURE_STOP:
            self.capture.stop()
        elif sched.stage == PROFILE and self.capture.running:
            self.capture.next_step(next_step)
        if event:
            t_mark = t_end
            drain = 0
            if event & (BLOCK_END | BLOCK_START) and self.opts.ab is not None and self.gpu is not None:
                # Each A/B block closes with the GPU's work done and the next starts from an idle
                # GPU, as SyncTax's own runner does: no block is charged for another's queue.
                self.hooks.synchronize()
                t_mark = ns()
                drain = t_mark - t_end
                self.drains += 1
            seg = self.seg
            if seg.block is not None:
                self.book.close(seg, t_mark, drain)
            else:
                seg.closed = True
            self._open_segment(next_step, t_mark)
        if event & CAPTURE_START:
            self.capture.start(next_step, cuda=self.gpu is not None)
