"""The probe attached to a running loop: the step's state, what happens at a step's end, and the
end of the run."""
from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from time import perf_counter_ns as ns
from typing import Any, Dict, Optional

from . import hooks, report
from .blocks import BlockBook, block_summary
from .capture import Capture
from .gputimer import GpuTimer
from .options import Options
from .runfolder import BLOCKS, PHASES, STEPS, TRACE
from .schedule import BLOCK, BLOCK_END, BLOCK_START, CAPTURE_START, CAPTURE_STOP, PROFILE, Schedule
from .sites import SiteTable
from .writer import Writer

_PHASE_LETTER = "FBO"
_SYNCS_PER_STEP = 256  # listed in a step's record; more are counted, not listed


class Probe:
    def __init__(self, torch, options: Options, folder: str, info: Dict[str, Any]):
        self.torch = torch
        self.opts = options
        self.folder = folder
        self.info = info
        self.cpu_mode = not torch.cuda.is_available()
        package_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep
        torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
        self.sites = SiteTable((torch_dir, package_dir))
        self.writer = Writer(options.queue_size)
        self.sched = Schedule(options, profiling=True)
        self.book = BlockBook(options.block_steps, self.writer, options.ab is not None)
        self.capture = Capture(torch, os.path.join(folder, TRACE), options.trace_gz)
        self.patches = hooks.Patches()
        self.gpu: Optional[GpuTimer] = None
        self.gpu_from_step: Optional[int] = None
        self.cuda_device: Optional[str] = None
        self.said_no_cuda = False
        # The step under way.
        self.step = 0
        self.phase = 0  # 0 up to backward(), 1 from backward() to the optimizer's step, 2 in it
        self.b_start = 0
        self.waits = [0, 0, 0]
        self.syncs: Optional[list] = None
        self.zero_grad_ns = 0
        self.loss = None
        self.inject = False
        # Re-entry guards: the probe's own work (busy), nested backward and optimizer calls.
        self.busy = False
        self.bw_depth = 0
        self.o_depth = 0
        self.tid = threading.get_ident()
        self._loop_optimizer: Optional[int] = None
        self.other_optimizer_steps = 0
        self.syncs_total = 0
        self.syncs_unlisted = 0
        self.synchronize = None  # torch.cuda.synchronize as it was (set by hooks.install)
        self.added_item = None  # Tensor.item as it was
        self.drains = 0
        self.probe_ms: list = []  # each block's median probe time after a step (the writer's thread)
        self.run_start = self.step_start = ns()
        self.wall_start = time.time()
        self._keep_loss = options.ab is not None
        self._finished: Optional[Dict[str, Any]] = None

    # -- attach / detach
    def start(self) -> None:
        self.writer.open(os.path.join(self.folder, STEPS), os.path.join(self.folder, BLOCKS),
                         os.path.join(self.folder, PHASES), report.phases_header(self.opts),
                         report.format_step, self._summarize, periodic=self.write_sites)
        self.writer.start()
        hooks.install(self, self.torch, self.patches)
        self.run_start = self.step_start = ns()
        if self.sched.initial:
            self._boundary(self.sched.initial, self.step_start, 0)
            self.inject = self.sched.stage == BLOCK and self.sched.style == "item"
            self.step_start = ns()
            if self.book.open_block is not None:
                self.book.t0 = self.step_start

    def finish(self, outcome: Dict[str, Any]) -> Dict[str, Any]:
        """Puts every patched function back and writes what the run leaves behind. Runs once."""
        if self._finished is not None:
            return self._finished
        self.busy = True
        self.patches.restore()
        self.capture.abandon()
        if self.gpu is not None:
            self.gpu.finish()
        unfinished = self.book.finish()
        writer_error = self.writer.close()
        self._finished = report.finish(self, outcome, unfinished, writer_error)
        self.loss = None
        return self._finished

    def write_sites(self) -> None:
        report.write_sites(self)

    def _summarize(self, held: tuple):
        """On the writer's thread: a closed block's summary, its probe time kept for the end."""
        block, line = block_summary(held)
        if block.get("probe_ms") is not None:
            self.probe_ms.append(block["probe_ms"])
        return block, line

    # -- called by the hooks
    def is_loop_optimizer(self, opt) -> bool:
        """The loop's optimizer is the first whose step is seen; another one's steps are timed
        within the phase they fall in and counted."""
        # A weak reference, not id(): a freed optimizer's id can come back as another's.
        if self._loop_optimizer is None:
            self._loop_optimizer = weakref.ref(opt)
        return self._loop_optimizer() is opt

    def backward_started(self, t0: int, loss) -> None:
        if self.b_start == 0 and self.o_depth == 0:
            self.b_start = t0
            self.phase = 1
        if self._keep_loss:
            self.loss = loss

    def sync(self, op: str, t0: int, t1: int) -> None:
        if self.busy or threading.get_ident() != self.tid:
            return
        wait = t1 - t0
        site = self.sites.site(op)
        site.add(wait)
        phase = self.phase
        self.waits[phase] += wait
        self.syncs_total += 1
        entry = (op, site.id, wait, _PHASE_LETTER[phase])
        syncs = self.syncs
        if syncs is None:
            self.syncs = [entry]
        elif len(syncs) < _SYNCS_PER_STEP:
            syncs.append(entry)
        else:
            self.syncs_unlisted += 1

    def step_end(self, t0: int, t1: int) -> None:
        """The loop's optimizer.step() ran from t0 to t1: the step is over. The loop waits for
        this, so it is written for speed: locals, no call that a plain step does not need."""
        self.busy = True
        try:
            x = 0
            if self.inject and self.loss is not None:
                x = self._add_item(self.loss)
            start, bs, w, sched, syncs = self.step_start, self.b_start, self.waits, self.sched, self.syncs
            if bs:
                f, b = bs - start, t0 - bs
            else:
                f, b = t0 - start, 0
            o = t1 - t0
            stage = sched.stage
            record = (self.step, stage, sched.block, sched.round, sched.style, start - self.run_start,
                      f, b, o, x, w[0], w[1], w[2], self.zero_grad_ns, syncs)
            if stage == BLOCK:
                self.book.records.append(record)
            event = sched.step_done(t1 + x - start)
            gpu = self.gpu
            if gpu is None and not (self.said_no_cuda and (self.cpu_mode or not self._cuda_started())):
                gpu = self._start_gpu()  # the script may have started to use CUDA since
            if gpu is not None:
                gpu.mark(self.step, record, event != 0)
            else:
                self.writer.put_step((record, None))
            if event or self.capture.running:
                self._boundary(event, t1 + x, self.step + 1)
            self.step += 1
            self.tid = threading.get_ident()
            self.b_start = self.zero_grad_ns = 0
            self.phase = 0
            if syncs is not None or w[0] or w[1] or w[2]:
                w[0] = w[1] = w[2] = 0
                self.syncs = None
            self.inject = sched.stage == BLOCK and sched.style == "item"
            self.step_start = ns()
            if event and self.book.t0 is None and self.book.open_block is not None:
                self.book.t0 = self.step_start
        finally:
            self.busy = False

    def _cuda_started(self) -> bool:
        """Whether a script that had not used CUDA at its first steps has started to (the GPU timer
        starts then)."""
        return self.torch.cuda.is_initialized()

    def emit(self, record: tuple, gpu_ms: Optional[float]) -> None:
        self.writer.put_step((record, gpu_ms))
        if gpu_ms is not None and record[1] == BLOCK:
            self.book.gpu_add(record[2], gpu_ms)

    # -- inside step_end
    def _add_item(self, loss) -> int:
        t = ns()
        try:
            self.added_item(loss if loss.numel() == 1 else loss.detach().reshape(-1)[0])
        except Exception:
            self.loss = None  # not a tensor that can be read; the block runs without the item
            return 0
        return ns() - t

    def _start_gpu(self) -> Optional[GpuTimer]:
        torch = self.torch
        if not self.cpu_mode and torch.cuda.is_initialized():
            self.gpu = GpuTimer(torch, self.emit, self.opts.gpu_every)
            self.gpu_from_step = self.step
            try:
                self.cuda_device = torch.cuda.get_device_name(torch.cuda.current_device())
            except Exception:
                self.cuda_device = None
            return self.gpu
        if not self.said_no_cuda:
            self.said_no_cuda = True
            if self.opts.quiet:
                return None
            why = "no CUDA device" if self.cpu_mode else "CUDA not in use by the script"
            print(f"synctax_probe: {why}: host phases only, no GPU step times", file=sys.stderr, flush=True)
        return None

    def _boundary(self, event: int, t_end: int, next_step: int) -> None:
        sched, book = self.sched, self.book
        if event & CAPTURE_STOP:
            self.capture.stop()
        elif sched.stage == PROFILE and self.capture.running:
            self.capture.next_step(next_step)
        if event & (BLOCK_END | BLOCK_START):
            drain, t_mark = 0, t_end
            if self.opts.ab is not None and self.gpu is not None:
                # Each A/B block closes with the GPU's work done and the next starts from an idle
                # GPU, as SyncTax's own runner does: no block is charged for another's queue.
                self.synchronize()
                t_mark = ns()
                drain = t_mark - t_end
                self.drains += 1
            if event & BLOCK_END:
                book.close(t_mark, drain)
            if event & BLOCK_START:
                book.open(sched.block, sched.style, sched.round, (t_mark - self.run_start) * 1e-6)
        if event & CAPTURE_START:
            self.capture.start(next_step, cuda=self.gpu is not None)
