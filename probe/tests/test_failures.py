"""What the run folder keeps when the script fails or is stopped, and bad input."""
import json
import os
import signal
import subprocess
import time

from conftest import FAST, SCRIPTS, probe_command, probe_env, run_probe


def load(out, name):
    with open(os.path.join(out, name), encoding="utf-8") as f:
        return json.load(f)


def count_lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def test_exception_in_the_script_keeps_the_record(tmp_path):
    out = str(tmp_path / "run")
    result = run_probe(["--out", out] + FAST, "mlp_sgd.py", ["--steps", "40", "--raise-at", "25"])
    assert result.returncode == 1
    # The traceback starts at the script, as Python prints it, without runpy's or the probe's frames.
    assert "ValueError: bad batch at step 25" in result.stderr
    traceback = result.stderr[result.stderr.index("Traceback"):]
    assert "mlp_sgd.py" in traceback and "runpy" not in traceback and "synctax_probe" not in traceback.split(
        "ValueError")[0]
    end = load(out, "end.json")
    assert end["exit_code"] == 1
    assert end["exception"] == {"type": "ValueError", "message": "bad batch at step 25"}
    assert end["steps"] == 25 and count_lines(os.path.join(out, "steps.jsonl")) == 25
    assert load(out, "sites.json")["sites"]


def stop_after_steps(tmp_path, sig, min_steps=30):
    out = str(tmp_path / "run")
    proc = subprocess.Popen(probe_command(["--out", out] + FAST, "mlp_sgd.py", ["--forever"]), env=probe_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    steps = os.path.join(out, "steps.jsonl")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if os.path.exists(steps) and count_lines(steps) >= min_steps:
            break
        time.sleep(0.05)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    return out, proc.returncode, stderr


def test_ctrl_c_keeps_what_was_recorded(tmp_path):
    out, code, stderr = stop_after_steps(tmp_path, signal.SIGINT)
    assert code == 130
    assert "KeyboardInterrupt" in stderr
    end = load(out, "end.json")
    assert end["interrupted"] and end["signal"] == "SIGINT" and end["exit_code"] == 130
    assert end["steps"] >= 30
    assert count_lines(os.path.join(out, "steps.jsonl")) == end["steps_written"] == end["steps"]
    assert end["blocks"] >= 1
    assert load(out, "probe.json")["pid"] > 0


def test_sigterm_keeps_what_was_recorded(tmp_path):
    out, code, _ = stop_after_steps(tmp_path, signal.SIGTERM)
    assert code == 143
    end = load(out, "end.json")
    assert end["interrupted"] and end["signal"] == "SIGTERM"
    assert count_lines(os.path.join(out, "steps.jsonl")) == end["steps"] >= 30


def test_unwritable_out_stops_before_the_script(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    marker = tmp_path / "ran"
    out = str(blocker / "run")
    result = run_probe(["--out", out], "marker.py", [str(marker)])
    assert result.returncode == 2
    assert f"cannot write the run folder '{out}'" in result.stderr
    assert "Not a directory" in result.stderr
    assert not marker.exists()


def test_missing_script(tmp_path):
    result = subprocess.run(probe_command(["--out", str(tmp_path / "run")], "no-such-script.py"), env=probe_env(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "cannot run" in result.stderr and "no-such-script.py" in result.stderr and "no such file" in result.stderr
    assert not (tmp_path / "run").exists()


def test_bad_option_values(tmp_path):
    for options in (["--block-steps", "0"], ["--ab", "print"], ["--bootstrap", "100"], ["--seed", "x"],
                    ["--gpu-span-ms", "-5"], ["--gpu-span-ms", "soon"], ["--block-ms", "-1"],
                    ["--block-ms", "soon"], ["--calib-every", "0"]):
        result = run_probe(["--out", str(tmp_path / "run")] + options, "marker.py", [str(tmp_path / "ran")])
        assert result.returncode == 2, options
        assert "usage:" in result.stderr and options[0] in result.stderr
    assert not (tmp_path / "ran").exists()


def test_script_without_optimizer_steps(tmp_path):
    out = str(tmp_path / "run")
    result = run_probe(["--out", out], "no_step.py")
    assert result.returncode == 0
    assert result.stdout == "evaluated\n"
    assert "no steps found" in result.stderr
    end = load(out, "end.json")
    assert end["steps"] == 0 and not end["steps_found"] and "no steps found" in end["message"]
    assert end["trace"] is None


def test_script_arguments_untouched(tmp_path):
    marker = tmp_path / "ran"
    result = run_probe(["--out", str(tmp_path / "run"), "--profile-steps", "0"], "marker.py",
                       [str(marker), "--out", "x", "--", "-v"])
    assert result.returncode == 0, result.stderr
    probe = load(str(tmp_path / "run"), "probe.json")
    assert probe["argv"][1:] == [str(marker), "--out", "x", "--", "-v"]
    assert marker.read_text() == "ran\n"
    assert os.path.basename(SCRIPTS) == "scripts"
