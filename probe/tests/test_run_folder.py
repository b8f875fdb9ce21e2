"""A real (CPU) training script under the probe: what it records and the folder's format."""
import json
import os
import re

import pytest

from conftest import FAST, run_probe, site_lines

STEPS = 120


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("basic") / "run")
    result = run_probe(["--out", out] + FAST, "mlp_sgd.py", ["--steps", str(STEPS), "--exit", "3"])
    return out, result


def load(out, name):
    with open(os.path.join(out, name), encoding="utf-8") as f:
        return json.load(f)


def steps_of(out):
    with open(os.path.join(out, "steps.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def read_phases_file(text):
    """SyncTax's reader of a phases file (core/trace readPhasesFile), in Python: `#` comments and
    blank lines out, a first line without digits a header, then three numbers F,B,O per line,
    commas or spaces between, each 0.001 to 1e6."""
    rows, header_allowed = [], True
    for line in text.split("\n"):
        line = line.split("#")[0].rstrip("\r")
        if not line.strip(" \t,"):
            continue
        if header_allowed and not re.search(r"\d", line):
            header_allowed = False
            continue
        header_allowed = False
        parts = [p for p in re.split(r"[,\s]+", line) if p]
        assert len(parts) == 3, line
        values = [float(p) for p in parts]
        assert all(0.001 <= v <= 1e6 for v in values), line
        rows.append(values)
    return rows


def test_exit_code_stdout_and_stderr_pass_through(run):
    out, result = run
    assert result.returncode == 3
    assert result.stdout.startswith("name=__main__ argv=['--steps', '120', '--exit', '3']\n")
    assert f"trained {STEPS} steps" in result.stdout
    assert "synctax_probe" not in result.stdout  # the probe speaks on stderr only
    assert "hello stderr" in result.stderr
    assert "no CUDA device: host phases only" in result.stderr
    assert result.stderr.count("host phases only") == 1


def test_every_step_recorded_in_order_with_phases(run):
    out, _ = run
    steps = steps_of(out)
    assert [s["step"] for s in steps] == list(range(STEPS))
    stages = [s["stage"] for s in steps]
    assert stages[:10] == ["warmup"] * 5 + ["profile"] * 3 + ["settle"] * 2
    assert set(stages[10:]) == {"block"}
    starts = [s["t_ns"] for s in steps]
    assert starts == sorted(starts)
    for s in steps:
        assert s["f_ns"] > 0 and s["b_ns"] > 0 and s["o_ns"] > 0
        assert s["x_ns"] == 0 and s["gpu_ms"] is None
        assert sum(s["waits_ns"]) == sum(wait for _, _, wait, _ in s["syncs"])
    # Block 0 starts right after settling; every block is a calibration block without --ab.
    blocks = [s["block"] for s in steps[10:]]
    assert blocks == [i // 10 for i in range(STEPS - 10)]
    assert {s["style"] for s in steps[10:]} == {"calib"}


def test_sync_sites_name_the_script_lines(run):
    out, _ = run
    lines = site_lines("mlp_sgd.py")
    sites = load(out, "sites.json")["sites"]
    found = {(s["op"], s["line"]): s for s in sites}
    # On a machine without CUDA the ops that sync on a GPU are listed at their lines; .cpu() of a
    # CPU tensor and a synchronize that never runs are not.
    assert set(found) == {("item", lines["item"]), ("tolist", lines["tolist"]), ("bool", lines["bool"]),
                          ("float", lines["float"])}
    script = os.path.realpath(os.path.join(os.path.dirname(__file__), "scripts", "mlp_sgd.py"))
    for s in sites:
        assert os.path.realpath(s["file"]) == script
        assert s["function"] == "<module>"
        assert s["total_wait_ms"] >= 0 and s["median_wait_us"] >= 0
    assert found[("item", lines["item"])]["count"] == STEPS
    assert found[("tolist", lines["tolist"])]["count"] == STEPS // 2
    # Each step's syncs point at those sites, in the phase before backward().
    ids = {s["id"]: s["op"] for s in sites}
    step = steps_of(out)[12]
    assert [(ids[site], op, phase) for op, site, _, phase in step["syncs"]] == [
        ("item", "item", "F"), ("bool", "bool", "F"), ("float", "float", "F")]


def test_phases_file_reads_as_synctax_reads_it(run):
    out, _ = run
    with open(os.path.join(out, "phases.csv"), encoding="utf-8") as f:
        rows = read_phases_file(f.read())
    assert len(rows) == (STEPS - 10) // 10
    end = load(out, "end.json")
    assert end["calibration_blocks"] == len(rows) == end["blocks"]


def test_blocks_hold_their_steps_medians(run):
    out, _ = run
    with open(os.path.join(out, "blocks.jsonl"), encoding="utf-8") as f:
        blocks = [json.loads(line) for line in f]
    assert [b["block"] for b in blocks] == list(range((STEPS - 10) // 10))
    steps = steps_of(out)
    for b in blocks:
        assert b["steps"] == 10 and b["style"] == "calib"
        mine = [s for s in steps if s["block"] == b["block"]]
        f_work = sorted(s["f_ns"] - s["waits_ns"][0] for s in mine)
        assert b["f_ms"] == pytest.approx((f_work[4] + f_work[5]) / 2 * 1e-6, abs=1e-6)
        assert b["syncs_per_step"] == pytest.approx(sum(len(s["syncs"]) for s in mine) / 10)
        assert b["ms_per_step"] > 0


def test_by_default_one_block_in_four_is_timed_the_others_counted(tmp_path):
    """Without --calib-every, blocks 0, 4, 8 are calibration blocks, timed step by step; the others
    (style none) are only counted: no step lines, a block line with their steps, wall time and
    syncs, and their syncs still in sites.json."""
    out = str(tmp_path / "run")
    options = FAST[:FAST.index("--calib-every")]
    result = run_probe(["--out", out] + options, "mlp_sgd.py", ["--steps", str(STEPS)])
    assert result.returncode == 0, result.stderr
    with open(os.path.join(out, "blocks.jsonl"), encoding="utf-8") as f:
        blocks = [json.loads(line) for line in f]
    assert [b["style"] for b in blocks] == ["calib" if i % 4 == 0 else "none" for i in range(11)]
    for b in blocks:
        assert b["steps"] == 10 and b["ms_per_step"] > 0 and b["timed"] == (b["style"] == "calib")
        assert b["syncs_per_step"] == pytest.approx(3.5)  # item, bool, float and every other step tolist
        if not b["timed"]:
            assert "f_ms" not in b and b["wait_ms_per_step"] >= 0
    steps = steps_of(out)
    timed = list(range(10)) + [10 + 10 * b["block"] + i for b in blocks if b["timed"] for i in range(10)]
    assert [s["step"] for s in steps] == timed
    end = load(out, "end.json")
    assert end["steps"] == STEPS and end["steps_written"] == len(timed)
    assert end["steps_untimed"] == STEPS - len(timed) and end["steps_dropped"] == 0
    assert end["calibration_blocks"] == 3 and end["blocks"] == 11
    assert f"{STEPS} steps ({len(timed)} timed step by step, {STEPS - len(timed)} counted in blocks)" in result.stderr
    with open(os.path.join(out, "phases.csv"), encoding="utf-8") as f:
        assert len(read_phases_file(f.read())) == 3
    sites = {s["op"]: s for s in load(out, "sites.json")["sites"]}
    assert sites["item"]["count"] == STEPS and sites["tolist"]["count"] == STEPS // 2


def test_trace_marks_the_profiled_steps(run):
    out, _ = run
    trace = load(out, "trace.pt.trace.json")
    events = trace["traceEvents"]  # Kineto's shape, also where torch was built without Kineto
    steps = [e for e in events if str(e.get("name", "")).startswith("ProfilerStep#")]
    assert sorted(e["name"] for e in steps) == ["ProfilerStep#5", "ProfilerStep#6", "ProfilerStep#7"]
    assert {e["cat"] for e in steps} == {"user_annotation"}
    assert any(str(e.get("name", "")).startswith("Optimizer.step#") for e in events)
    ops = [e for e in events if e.get("cat") in ("cpu_op", "user_annotation")]
    assert ops and all(isinstance(e["pid"], int) and isinstance(e["tid"], int) for e in ops)


def test_probe_and_end_records(run):
    out, _ = run
    probe = load(out, "probe.json")
    assert probe["format_version"] == 1
    assert probe["script"].endswith("mlp_sgd.py") and probe["argv"][1:] == ["--steps", "120", "--exit", "3"]
    for key in ("torch", "python", "hostname", "pid", "start_time", "options", "cuda_available"):
        assert key in probe
    assert probe["options"]["block_steps"] == 10
    end = load(out, "end.json")
    assert end["exit_code"] == 3 and end["exception"] is None and not end["interrupted"]
    assert end["steps"] == STEPS and end["steps_found"]
    assert end["steps_written"] == STEPS and end["steps_dropped"] == 0
    assert end["warmup_steps"] == 5 and end["profiled_steps"] == 3
    assert end["trace"] == "trace.pt.trace.json"
    assert end["syncs"] == sum(s["count"] for s in load(out, "sites.json")["sites"])
    assert end["write_errors"] == []
    assert not os.path.exists(os.path.join(out, "ab.json"))
    leftovers = [n for n in os.listdir(out) if n.endswith(".tmp")]
    assert leftovers == []
