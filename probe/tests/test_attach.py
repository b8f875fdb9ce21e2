"""attach()/detach() in this process: what is patched, and that all of it is put back."""
import json
import os
import subprocess
import sys
import time

import pytest
import torch

import synctax_probe
from conftest import PROBE_DIR, probe_env

PATCHED = [(torch.Tensor, name) for name in ("item", "tolist", "cpu", "to", "numpy", "nonzero", "__bool__",
                                              "__float__", "__int__")]
PATCHED += [(torch, "nonzero"), (torch.cuda, "synchronize"), (torch.autograd, "backward"),
            (torch.optim.Optimizer, "__init__"),
            (torch.optim.SGD, "step"), (torch.optim.Adam, "step")]


def identities():
    return {(owner.__name__, name): (getattr(owner, name), name in owner.__dict__) for owner, name in PATCHED}


def train(steps, opt_class=torch.optim.SGD):
    net = torch.nn.Linear(8, 2)
    opt = opt_class(net.parameters(), lr=0.01)
    x, y = torch.randn(4, 8), torch.randn(4, 2)
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        loss.item()
    return opt


FAST = dict(warmup_steps=2, warmup_max_steps=2, profile_steps=0, block_steps=4, block_ms=0, calib_every=1)


def test_detach_restores_every_patched_function(tmp_path):
    train(1)  # SGD has been used: torch has put its own wrapper on SGD.step
    before = identities()
    folder = synctax_probe.attach(out=str(tmp_path / "run"), **FAST)
    try:
        during = identities()
        for key in before:
            if key != ("Adam", "step"):  # Adam is not used yet: wrapped at its first instance
                assert during[key][0] is not before[key][0], key
        kept = train(10)  # still alive: the loop's optimizer
        train(2, torch.optim.Adam)
        assert getattr(torch.optim.Adam.step, "__synctax_probe__", False)
    finally:
        end = synctax_probe.detach()
    after = identities()
    for key in before:
        if key != ("Adam", "step"):
            assert after[key] == before[key], key
    assert not getattr(torch.optim.Adam.step, "__synctax_probe__", False)
    assert not synctax_probe.attached()
    # The loop's optimizer is the first one stepped; another's few steps are counted apart.
    assert end["steps"] == 10 and end["other_optimizer_steps"] == 2 and end["loop_optimizer_changes"] == 0
    del kept
    assert end["exit_code"] is None
    with open(os.path.join(folder, "end.json"), encoding="utf-8") as f:
        assert json.load(f)["steps"] == 10
    # Nothing is recorded once detached.
    train(2)
    with open(os.path.join(folder, "steps.jsonl"), encoding="utf-8") as f:
        assert sum(1 for _ in f) == 10
    assert synctax_probe.detach() is None


def test_bad_options_patch_nothing(tmp_path):
    before = identities()
    with pytest.raises(ValueError, match="block_steps"):
        synctax_probe.attach(out=str(tmp_path / "run"), block_steps=1)
    with pytest.raises(ValueError, match="ab"):
        synctax_probe.attach(out=str(tmp_path / "run"), ab="print")
    with pytest.raises(ValueError, match="calib_every"):
        synctax_probe.attach(out=str(tmp_path / "run"), calib_every=0)
    assert identities() == before and not synctax_probe.attached()


def test_attach_twice_is_refused(tmp_path):
    synctax_probe.attach(out=str(tmp_path / "a"), **FAST)
    try:
        with pytest.raises(RuntimeError, match="attached already"):
            synctax_probe.attach(out=str(tmp_path / "b"), **FAST)
    finally:
        synctax_probe.detach()


def test_one_folder_per_rank(tmp_path, monkeypatch):
    monkeypatch.setenv("RANK", "3")
    monkeypatch.setenv("WORLD_SIZE", "4")
    folder = synctax_probe.attach(out=str(tmp_path / "ddp"), **FAST)
    try:
        train(3)
    finally:
        synctax_probe.detach()
    assert folder == str(tmp_path / "ddp" / "rank-3")
    with open(os.path.join(folder, "probe.json"), encoding="utf-8") as f:
        info = json.load(f)
    assert info["rank"] == 3 and info["world_size"] == 4


def test_default_folder_is_named_after_the_script_and_never_reused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    start = time.time()  # both runs start in the same second
    monkeypatch.setattr(time, "time", lambda: start)
    folder = synctax_probe.attach(script="my_train.py", **FAST)
    synctax_probe.detach()
    parent, name = os.path.split(folder)
    assert parent == str(tmp_path / "synctax-probe") and name.startswith("my_train-")
    assert os.path.isfile(os.path.join(folder, "end.json"))
    # The same second's default is taken (and the next name too): the next run gets one of its own.
    os.makedirs(folder + "-2")
    again = synctax_probe.attach(script="my_train.py", **FAST)
    synctax_probe.detach()
    assert again == folder + "-3" and os.path.isfile(os.path.join(folder, "end.json"))


def test_importing_changes_nothing():
    code = ("import torch\n"
            "names = ['item', 'tolist', 'cpu', 'to', 'numpy', 'nonzero', '__bool__', 'backward']\n"
            "before = [getattr(torch.Tensor, n) for n in names] + [torch.cuda.synchronize, torch.nonzero,"
            " torch.autograd.backward, torch.optim.Optimizer.__init__, torch.optim.Optimizer.zero_grad]\n"
            "import synctax_probe, synctax_probe.__main__\n"
            "after = [getattr(torch.Tensor, n) for n in names] + [torch.cuda.synchronize, torch.nonzero,"
            " torch.autograd.backward, torch.optim.Optimizer.__init__, torch.optim.Optimizer.zero_grad]\n"
            "assert all(a is b for a, b in zip(before, after))\n"
            "import threading; assert threading.active_count() == 1\n")
    result = subprocess.run([sys.executable, "-c", code], env=probe_env(), capture_output=True, text=True,
                            timeout=60, cwd=PROBE_DIR)
    assert result.returncode == 0, result.stderr


def caught_up(writer, timeout_s=30.0):
    """Waits until the writer has taken every closed segment (the one under way stays)."""
    deadline = time.monotonic() + timeout_s
    while len(writer._segments) > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # its last wake's lines and blocks, let go


def test_memory_stays_bounded_over_many_steps(tmp_path):
    """Steps are not kept: after the first ones, a step's end adds a few bytes at most (its share
    of a round of the A/B), whatever the run's length."""
    import tracemalloc
    synctax_probe.attach(out=str(tmp_path / "run"), ab="item", warmup_steps=0, warmup_max_steps=0,
                         profile_steps=0, block_ms=0, queue_size=100, quiet=True)
    p = synctax_probe._probe
    clock = time.perf_counter_ns
    try:
        for _ in range(5000):
            p.step_end(clock(), clock())
        tracemalloc.start()
        caught_up(p.writer)  # what the writer holds for a moment is not what the probe keeps
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(40000):
            p.step_end(clock(), clock())
        caught_up(p.writer)
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
    finally:
        end = synctax_probe.detach()
    assert end["steps"] == 45000 and end["rounds"] > 500
    assert grown < 40000 * 16, grown


def test_steps_kept_in_passes_come_out_in_order_in_their_blocks(tmp_path):
    """Most steps' ends only append the step; the schedule hears of them at its boundaries (and
    at each GPU span's end): every timed step comes out once, in order, in its stage and block,
    with its syncs, and each block holds its block_steps steps. The A/B's blocks other than the
    calibration blocks are only counted: their steps are the gaps between the timed ones."""
    folder = synctax_probe.attach(out=str(tmp_path / "run"), ab="item", warmup_steps=3, warmup_max_steps=3,
                                  profile_steps=2, capture_after_blocks=0, settle_steps=5, block_steps=7, block_ms=0, gpu_span_ms=0.5)
    try:
        train(3 + 2 + 5 + 7 * 4 * 3 + 2)  # warm-up, capture, settle, three rounds, two steps of a fourth
    finally:
        end = synctax_probe.detach()
    with open(os.path.join(folder, "steps.jsonl"), encoding="utf-8") as f:
        steps = [json.loads(line) for line in f]
    with open(os.path.join(folder, "blocks.jsonl"), encoding="utf-8") as f:
        closed = [json.loads(line) for line in f]
    assert [b["block"] for b in closed] == list(range(12)) and all(b["steps"] == 7 for b in closed)
    assert end["rounds"] == 3
    assert end["steps"] == 3 + 2 + 5 + 84 + 2 == end["steps_written"] + end["steps_untimed"]
    assert [s["stage"] for s in steps[:10]] == ["warmup"] * 3 + ["profile"] * 2 + ["settle"] * 5
    # The timed steps: the stages', then each calibration block's, in order.
    timed = list(range(10))
    for b in closed:
        if b["style"] == "calib":
            timed += range(10 + 7 * b["block"], 10 + 7 * b["block"] + 7)
    if end["unfinished_block"] and end["unfinished_block"]["style"] == "calib":
        timed += range(10 + 84, 10 + 86)
    assert [s["step"] for s in steps] == timed == list(range(10)) + [s["step"] for s in steps[10:]]
    assert all(s["block"] == (s["step"] - 10) // 7 and s["style"] == "calib" for s in steps[10:])
    if not torch.cuda.is_available():  # train()'s tensors are on the CPU: their item() syncs only there
        # loss.item() after each optimizer step: in the next step's record, before its forward
        assert not steps[0]["syncs"]
        assert all(s["syncs"][0][:2] == ["item", 0] and s["syncs"][0][3] == "F" for s in steps[1:])
        # a counted block's syncs: counted, not listed by step
        assert all(b["syncs_per_step"] == 1 for b in closed)
    assert all(s["x_ns"] == 0 for s in steps)
    assert all(b["added_items"] == (7 if b["style"] == "item" else 0) for b in closed if not b["timed"])
    # The probe's own time after each step, from the records: the next start less this step's end.
    first = [s for s in steps if s["block"] == closed[[b["style"] for b in closed].index("calib")]["block"]]
    gaps = sorted(b["t_ns"] - (a["t_ns"] + a["f_ns"] + a["b_ns"] + a["o_ns"] + a["x_ns"]) for a, b in zip(first, first[1:]))
    calib = next(b for b in closed if b["style"] == "calib")
    assert calib["probe_ms"] == pytest.approx((gaps[2] + gaps[3]) / 2 * 1e-6, abs=1e-6) and gaps[0] > 0
    assert end["probe_us_per_step"] > 0


def test_blocks_grow_to_block_ms_one_length_a_round(tmp_path):
    """Steps of a few microseconds and blocks of 2 ms: blocks hold far more than block_steps, every
    block of a round as many steps, and ab.json says the rounds' length."""
    import statistics
    folder = str(tmp_path / "run")
    synctax_probe.attach(out=folder, ab="item", warmup_steps=0, warmup_max_steps=0, profile_steps=0,
                         block_steps=5, block_ms=2, quiet=True)
    p = synctax_probe._probe
    clock = time.perf_counter_ns
    try:
        while len(p.book.rounds) < 6:
            p.step_end(clock(), clock())
    finally:
        synctax_probe.detach()
    with open(os.path.join(folder, "blocks.jsonl"), encoding="utf-8") as f:
        blocks = [json.loads(line) for line in f]
    by_round = {}
    for b in blocks:
        by_round.setdefault(b["round"], set()).add(b["steps"])
    complete = [steps for steps in by_round.values() if len(steps) == 1]
    assert all(len(steps) == 1 for steps in by_round.values()), by_round
    assert max(max(s) for s in complete) > 5
    with open(os.path.join(folder, "ab.json"), encoding="utf-8") as f:
        ab = json.load(f)
    lengths = [next(iter(by_round[r])) for r in range(ab["rounds"])]
    assert ab["block_steps"] == round(statistics.median(lengths)) and ab["block_ms"] == 2


def test_a_new_optimizer_each_epoch_takes_over_the_loop_s_steps(tmp_path):
    """An optimizer built again each epoch, the old one freed or still held (by a scheduler, say):
    the new one's steps are the loop's, and the change is said."""
    synctax_probe.attach(out=str(tmp_path / "run"), **dict(FAST, calib_every=4))
    held = []
    try:
        for epoch in range(3):
            held.append(train(40))  # a new SGD each epoch; the old ones stay alive
        train(40, torch.optim.Adam)  # a restart with another optimizer, the last SGD still held
    finally:
        end = synctax_probe.detach()
    assert end["loop_optimizer_changes"] == 3
    assert end["steps"] + end["steps_before_take_over"] == 160 and end["steps_before_take_over"] == 6
    assert end["other_optimizer_steps"] == 0


def gan_steps(net_d, net_g, opt_d, opt_g, steps):
    """A GAN's steps: the discriminator's optimizer, then the generator's, each after its backward."""
    x = torch.randn(4, 8)
    for _ in range(steps):
        opt_d.zero_grad()
        net_d(x).mean().backward()
        opt_d.step()
        opt_g.zero_grad()
        net_d(net_g(x)).mean().backward()
        opt_g.step()


def test_two_optimizers_stepping_in_turn_keep_the_first_as_the_loop_s(tmp_path):
    """A GAN steps its discriminator's optimizer, then its generator's: the first is the loop's."""
    net_d, net_g = torch.nn.Linear(8, 1), torch.nn.Linear(8, 8)
    opt_d, opt_g = torch.optim.SGD(net_d.parameters(), lr=0.01), torch.optim.Adam(net_g.parameters(), lr=0.01)
    synctax_probe.attach(out=str(tmp_path / "run"), **FAST)
    try:
        gan_steps(net_d, net_g, opt_d, opt_g, 30)
    finally:
        end = synctax_probe.detach()
    assert end["steps"] == 30 and end["other_optimizer_steps"] == 30 and end["loop_optimizer_changes"] == 0


def steps_of(folder):
    with open(os.path.join(folder, "steps.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def blocks_of(folder):
    with open(os.path.join(folder, "blocks.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("opt_class", [torch.optim.SGD, torch.optim.LBFGS])
def test_a_step_through_a_closure_has_its_forward_and_backward_in_f_and_b(tmp_path, opt_class):
    """opt.step(closure), as LBFGS needs and PyTorch Lightning does for every optimizer: the
    closure's forward is F and its backward B, not all of it O."""
    net = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 2))
    opt = opt_class(net.parameters(), lr=0.01) if opt_class is torch.optim.SGD else opt_class(net.parameters(),
                                                                                               max_iter=2)
    x, y = torch.randn(64, 64), torch.randn(64, 2)

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(net(x), y)
        loss.backward()
        return loss

    folder = synctax_probe.attach(out=str(tmp_path / "run"), **FAST)
    try:
        for _ in range(30):
            opt.step(closure) if opt_class is torch.optim.LBFGS else opt.step(closure=closure)
    finally:
        end = synctax_probe.detach()
    assert end["steps"] == 30
    steps = steps_of(folder)
    assert all(s["b_ns"] > 0 and s["f_ns"] > 0 and s["o_ns"] > 0 for s in steps), steps[:2]


def test_a_sync_inside_another_optimizer_s_step_stays_in_the_phase_it_falls_in(tmp_path):
    """A GAN's second optimizer syncs in its step: the wait is put in the loop's phase under way
    (B: the second network's backward started it), never taken out of O, which does not hold it."""

    class Syncing(torch.optim.SGD):
        def step(self, closure=None):
            result = super().step(closure)
            torch.zeros(1).sum().item()  # a sync of its own, as a clipping or logging optimizer
            return result

    net_d, net_g = torch.nn.Linear(8, 1), torch.nn.Linear(8, 8)
    opt_d, opt_g = torch.optim.SGD(net_d.parameters(), lr=0.01), Syncing(net_g.parameters(), lr=0.01)
    folder = synctax_probe.attach(out=str(tmp_path / "run"), **FAST)
    try:
        gan_steps(net_d, net_g, opt_d, opt_g, 30)
    finally:
        synctax_probe.detach()
    listed = [sync for s in steps_of(folder) for sync in s["syncs"]]
    if not torch.cuda.is_available():  # on the CPU every item() is listed
        assert listed and {sync[3] for sync in listed} == {"B"}
    assert all(b["o_ms"] >= 0 for b in blocks_of(folder))
