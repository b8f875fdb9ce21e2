"""--ab defer: the deferred reads' values (late, in order, none lost), the waits it cannot avoid, the
lines it refuses, the loop untouched outside its blocks, and bad input. The numbers mean nothing on
a CPU; what the loop sees does."""
import json
import os
import subprocess
import sys
import types

import pytest
import torch

import synctax_probe
from synctax_probe import defer
from synctax_probe.defer import FIRST, IN_FLIGHT, LATE, CpuCopies, CudaCopies, Deferrer
from synctax_probe.defersite import DeferSite, Line, pick, resolve
from conftest import SCRIPTS, run_probe, site_lines

ORIGINALS = {"item": torch.Tensor.item, "float": torch.Tensor.__float__, "int": torch.Tensor.__int__,
             "tolist": torch.Tensor.tolist}
SITE = types.SimpleNamespace(id=0)
SHORT = ["--warmup-steps", "3", "--warmup-max-steps", "3", "--profile-steps", "0", "--block-steps", "3",
         "--block-ms", "0"]


class NeverDone(CpuCopies):
    """Copies whose events the GPU never reaches until a call waits for one: a GPU far behind."""

    def start(self, tensor):
        return [tensor.detach().clone(), False]

    def done(self, ticket):
        return ticket[1]

    def wait(self, ticket):
        ticket[1] = True

    def value(self, ticket):
        return ticket[0]


def test_a_deferred_read_answers_with_the_call_before_it_in_order_none_lost():
    d = Deferrer(CpuCopies(), ORIGINALS, lag=4)
    values = [float(i) + 0.5 for i in range(10)]
    answers = [d.call(SITE, "item", torch.tensor(v), step) for step, v in enumerate(values)]
    assert answers[0] == (values[0], FIRST)  # no earlier value: it waits for its own
    assert answers[1:] == [(v, LATE) for v in values[:-1]]
    assert d.report()["lag_calls"] == {"median": 1, "max": 1} and d.report()["lag_steps"] == {"median": 1, "max": 1}
    assert d.calls[LATE] == 9 and d.calls[FIRST] == 1


def test_two_reads_of_one_site_in_a_step_keep_their_own_values():
    """print(a.item(), b.item()) or a list of metrics read in a loop: one site, read twice a step."""
    d = Deferrer(CpuCopies(), ORIGINALS, lag=4)
    got = []
    for step in range(5):
        got.append([d.call(SITE, "item", torch.tensor(step * 10 + k), step)[0] for k in (1, 2)])
    assert got[1:] == [[step * 10 + 1, step * 10 + 2] for step in range(4)]


def test_a_copy_that_never_completes_in_time_waits_after_the_lag_and_is_counted():
    d = Deferrer(NeverDone(), ORIGINALS, lag=3)
    answers = [d.call(SITE, "item", torch.tensor(step), step) for step in range(9)]
    # Waited for the first; then the newest value complete (its own) for three reads; then, every
    # copy since still in flight, it waits for its own again.
    assert answers[:5] == [(0, FIRST), (0, LATE), (0, LATE), (0, LATE), (4, IN_FLIGHT)]
    assert answers[5:] == [(4, LATE), (4, LATE), (4, LATE), (8, IN_FLIGHT)]
    report = d.report()
    assert report["waited_first"] == 1 and report["waited_in_flight"] == 2 and report["late"] == 6
    assert report["lag_calls"] == {"median": 2, "max": 3}


def test_the_value_the_loop_got_outside_a_defer_block_answers_its_first_read():
    d = Deferrer(CpuCopies(), ORIGINALS, lag=4)
    for step in range(3):  # a none block: the loop read 0, 1, 2 itself
        d.saw(SITE, "item", float(step), step)
    assert d.call(SITE, "item", torch.tensor(3.0), 3) == (2.0, LATE)
    assert d.call(SITE, "item", torch.tensor(4.0), 4) == (3.0, LATE)


def test_a_list_answered_twice_is_the_loop_s_own_each_time():
    d = Deferrer(NeverDone(), ORIGINALS, lag=4)
    first, _ = d.call(SITE, "tolist", torch.tensor([1, 2]), 0)
    again, how = d.call(SITE, "tolist", torch.tensor([3, 4]), 1)
    later, _ = d.call(SITE, "tolist", torch.tensor([5, 6]), 2)
    assert how == LATE and first == again == later == [1, 2]
    again.append(9)
    assert later == [1, 2] and first == [1, 2]


def test_a_large_tensor_or_too_many_reads_a_step_are_not_deferred():
    d = Deferrer(CpuCopies(), ORIGINALS, lag=4)
    assert d.call(SITE, "tolist", torch.zeros(defer.MAX_ELEMENTS + 1), 0) == (None, defer.AS_BEFORE)
    assert d.report()["not_deferred"] == 1


class FakeEvent:
    def __init__(self):
        self.recorded, self.reached = 0, False

    def record(self, stream=None):
        self.recorded += 1
        self.reached = False

    def query(self):
        return self.reached

    def synchronize(self):
        self.reached = True


def test_cuda_copies_reuse_a_buffer_and_an_event_only_once_read():
    """The CUDA copies' bookkeeping, with CPU tensors for pinned buffers and fake events."""
    made = []

    def empty(shape, dtype):
        made.append(torch.empty(shape, dtype=dtype))
        return made[-1]

    copies = CudaCopies(types.SimpleNamespace(cuda=None), empty=empty, event=FakeEvent)
    copies.prepare(2)
    assert all(e.recorded == 1 for e in copies._events)  # made and recorded once, ahead
    d = Deferrer(copies, ORIGINALS, lag=8)
    assert d.call(SITE, "item", torch.tensor(1.0), 0) == (1.0, FIRST)
    assert d.call(SITE, "item", torch.tensor(2.0), 1) == (1.0, LATE)
    ticket = d._chains[(0, 0)].pending[0][2]
    assert not copies.done(ticket) and len(made) == 1  # in flight: its buffer is not reused
    assert d.call(SITE, "item", torch.tensor(3.0), 2) == (1.0, LATE)
    assert len(made) == 2
    ticket[1].reached = True  # the GPU passed the second copy
    assert d.call(SITE, "item", torch.tensor(4.0), 3) == (2.0, LATE)
    assert len(made) == 2  # the second's buffer came back for the fourth


def site(op, file, line, total_ns=1000, count=10):
    return types.SimpleNamespace(op=op, user=(file, line, "f"), total_ns=total_ns, count=count, samples=[100],
                                 defer=False)


def test_the_pick_is_the_largest_wait_among_lines_that_can_be_deferred(tmp_path):
    train = str(tmp_path / "train.py")
    sites = [site("bool", train, 5, total_ns=9000), site("item", train, 7, total_ns=5000),
             site("float", train, 9, total_ns=3000), site("item", train, 11, total_ns=1000),
             site("nonzero", train, 11, total_ns=1000)]
    best, passed = pick(sites, 10, kept=[])
    assert best == Line(train, 7)
    assert [p["site"].endswith(":5") and "steers the loop" in p["reason"] for p in passed] == [True, False]
    assert "nonzero" in passed[1]["reason"]
    best, passed = pick(sites, 10, kept=[Line(train, 7)])
    assert best == Line(train, 9) and any(p["reason"] == "--keep names it" for p in passed)


def test_a_bool_at_the_named_line_refuses_it_with_its_reason(tmp_path, capsys):
    train = str(tmp_path / "train.py")
    ds = DeferSite(Line(train, 5), [], quiet=False)
    item, guard = site("item", train, 5), site("bool", train, 5)
    ds.on_new(item)
    assert item.defer and ds.refused is None
    ds.on_new(guard)
    assert not guard.defer and not item.defer  # the whole line: its bool would still wait
    assert ds.refused.endswith(":5 cannot be deferred: its `bool` sync: its value steers the loop (if, while or "
                               "assert on a tensor): read late, the loop would take another path")
    assert ds.refused in capsys.readouterr().err


def test_a_line_is_resolved_from_the_working_folder_or_the_script_s(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    script = tmp_path / "pkg" / "train.py"
    script.write_text("import torch\n\n# a comment\nx = 1\n")
    monkeypatch.chdir(tmp_path)
    assert resolve("train.py:4", "ab", str(script)) == Line(str(script), 4)
    assert resolve("pkg/train.py:1", "ab", None) == Line(str(script), 1)
    for spec, said in (("train.py:2", "blank"), ("train.py:3", "a comment"), ("train.py:9", "has 4 lines"),
                       ("other.py:1", "no such file")):
        with pytest.raises(ValueError, match=said):
            resolve(spec, "ab", str(script))


def test_bad_defer_input_is_said_before_the_script_runs(tmp_path):
    marker = tmp_path / "ran"
    lines = site_lines("defer_log.py")
    with open(os.path.join(SCRIPTS, "defer_log.py"), encoding="utf-8") as f:
        blank = next(n for n, text in enumerate(f, 1) if not text.strip())
    for options, said in ((["--ab", "defer:defer_log.py"], "expected FILE:LINE"),
                          (["--ab", "defer:"], "expected FILE:LINE"),
                          (["--ab", "later"], "expected item, defer or defer:FILE:LINE"),
                          (["--keep", "defer_log.py:3"], "keep: only with --ab defer"),
                          (["--ab", "defer:no_such.py:3"], "no such file"),
                          (["--ab", "defer:defer_log.py:999"], "lines"),
                          (["--ab", f"defer:defer_log.py:{blank}"], "no code on that line (blank)"),
                          (["--ab", f"defer:defer_log.py:{lines['item']}", "--keep", "defer_log.py:5"],
                           "--keep is for --ab defer's own pick")):
        out = tmp_path / "run"
        result = run_probe(["--out", str(out)] + options, "marker.py", [str(marker)], cwd=SCRIPTS)
        assert result.returncode == 2, (options, result.stderr)
        assert said in result.stderr, (options, result.stderr)
        assert not out.exists() and not marker.exists()
    with pytest.raises(ValueError, match="no such file"):
        synctax_probe.attach(out=str(tmp_path / "run"), ab="defer:no_such.py:3")
    assert not synctax_probe.attached()


def blocks_and_end(out):
    with open(os.path.join(out, "blocks.jsonl"), encoding="utf-8") as f:
        blocks = [json.loads(line) for line in f]
    with open(os.path.join(out, "end.json"), encoding="utf-8") as f:
        end = json.load(f)
    if end["unfinished_block"]:
        blocks.append(end["unfinished_block"])
    return blocks, end


def test_outside_defer_blocks_the_loop_is_bit_identical_and_inside_it_reads_the_step_before(tmp_path):
    steps = 3 + 8 * 4 * 3
    plain = subprocess.run([sys.executable, os.path.join(SCRIPTS, "defer_log.py"), "--steps", str(steps)],
                           capture_output=True, text=True, timeout=120, env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
    assert plain.returncode == 0, plain.stderr
    out = str(tmp_path / "run")
    line = site_lines("defer_log.py")["item"]
    result = run_probe(["--out", out, "--ab", f"defer:defer_log.py:{line}"] + SHORT, "defer_log.py",
                       ["--steps", str(steps)], cwd=SCRIPTS)
    assert result.returncode == 0, result.stderr
    mine, theirs = result.stdout.splitlines(), plain.stdout.splitlines()
    assert len(mine) == len(theirs) == steps + 1
    assert mine[-1] == theirs[-1]  # the weights: the training did not change
    blocks, end = blocks_and_end(out)
    deferred = {s for b in blocks if b["style"] == "defer"
                for s in range(b["first_step"], b["first_step"] + b["steps"])}
    assert len(deferred) >= 8 * 3
    value = [t.split(" loss ")[1] for t in theirs[:-1]]
    for step, text in enumerate(mine[:-1]):
        assert text == f"step {step} loss {value[step - 1] if step in deferred else value[step]}", step
    with open(os.path.join(out, "ab.json"), encoding="utf-8") as f:
        ab = json.load(f)
    d = ab["defer"]
    assert ab["ab"] == "defer" and set(ab["estimates"]) == {"defer", "none_aa", "calib"}
    assert d["site"] == f"defer_log.py:{line}" and d["chosen"] == "named" and d["ops"] == ["item"]
    assert d["deferred"]["late"] == len(deferred) and d["deferred"]["waited_first"] == 0
    assert d["deferred"]["lag_calls"] == {"median": 1, "max": 1}
    assert d["whatif"] is None and d["whatif_reason"]
    assert d["text"] in result.stderr and f"deferring defer_log.py:{line} (`item`, 1 a step" in d["text"]
    assert "in its blocks the loop saw that line's values late" in result.stderr
    assert all(b["deferred"] == b["steps"] and b["deferred_site"] == d["site"]
               for b in blocks if b["style"] == "defer" and "deferred" in b)


def test_a_named_bool_line_is_refused_and_the_ab_says_why(tmp_path):
    out = str(tmp_path / "run")
    line = site_lines("defer_log.py")["bool"]
    result = run_probe(["--out", out, "--ab", f"defer:defer_log.py:{line}"] + SHORT, "defer_log.py",
                       ["--steps", "40"], cwd=SCRIPTS)
    assert result.returncode == 0, result.stderr  # the script ran as it runs: its exit code
    said = f"defer_log.py:{line} cannot be deferred: its `bool` sync: its value steers the loop"
    assert said in result.stderr
    with open(os.path.join(out, "ab.json"), encoding="utf-8") as f:
        ab = json.load(f)
    assert ab["estimates"] is None and said in ab["reason"] and said in ab["defer"]["refused"]
    assert f"no A/B estimate: --ab defer deferred nothing: {said}" in result.stderr


def test_a_named_line_that_never_syncs_is_said(tmp_path):
    out = str(tmp_path / "run")
    line = site_lines("defer_log.py")["item"] - 2  # opt.zero_grad()
    result = run_probe(["--out", out, "--ab", f"defer:defer_log.py:{line}"] + SHORT, "defer_log.py",
                       ["--steps", "40"], cwd=SCRIPTS)
    assert result.returncode == 0, result.stderr
    with open(os.path.join(out, "ab.json"), encoding="utf-8") as f:
        ab = json.load(f)
    assert ab["estimates"] is None and f"defer_log.py:{line} never synced in 40 steps" in ab["reason"]


def test_defer_picks_a_line_that_can_be_deferred_and_keep_leaves_one_out(tmp_path):
    lines = site_lines("mlp_sgd.py")
    out = str(tmp_path / "run")
    kept = [f"mlp_sgd.py:{lines[op]}" for op in ("item", "tolist")]
    result = run_probe(["--out", out, "--ab", "defer", "--keep", kept[0], "--keep", kept[1]] + SHORT, "mlp_sgd.py",
                       ["--steps", "60"], cwd=SCRIPTS)
    assert result.returncode == 0, result.stderr
    with open(os.path.join(out, "ab.json"), encoding="utf-8") as f:
        d = json.load(f)["defer"]
    assert d["chosen"] == "picked" and d["site"] == f"mlp_sgd.py:{lines['float']}" and d["picked_after_steps"] == 3
    reasons = {p["site"]: p["reason"] for p in d["passed_over"]}
    assert "steers the loop" in reasons[f"mlp_sgd.py:{lines['bool']}"]
    assert reasons[kept[0]] == reasons[kept[1]] == "--keep names it"
    assert f"--ab defer picked mlp_sgd.py:{lines['float']} (`float`" in result.stderr


def test_a_gpu_far_behind_makes_reads_wait_and_blocks_count_them(tmp_path, monkeypatch):
    """In-process, with copies the device never completes unless waited for."""
    monkeypatch.setattr(defer, "make_copies", lambda torch, cpu_mode: NeverDone())
    net = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x = torch.randn(4, 8)
    folder = synctax_probe.attach(out=str(tmp_path / "run"), ab="defer", defer_lag=2, warmup_steps=3,
                                  warmup_max_steps=3, profile_steps=0, block_steps=6, block_ms=0, quiet=True)
    try:
        for _ in range(3 + 6 * 4 * 3):
            opt.zero_grad()
            loss = net(x).pow(2).mean()
            loss.backward()
            opt.step()
            loss.item()
    finally:
        synctax_probe.detach()
    blocks, _ = blocks_and_end(folder)
    with open(os.path.join(folder, "ab.json"), encoding="utf-8") as f:
        d = json.load(f)["defer"]["deferred"]
    # Each block: a first read answered with the none block's value, two late, then a wait.
    assert d["waited_in_flight"] > 0 and d["waited_first"] == 0
    assert d["lag_calls"]["max"] == 2
    defer_blocks = [b for b in blocks if b["style"] == "defer" and "deferred" in b]
    assert all(b["deferred_waited"] >= 1 and b["deferred"] + b["deferred_waited"] == b["steps"] for b in defer_blocks)
    assert sum(b["deferred_waited"] for b in defer_blocks) == d["waited_in_flight"]
