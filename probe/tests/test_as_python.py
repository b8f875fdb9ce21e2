"""The script runs under the probe as `python3 script.py` (or `python3 -m module`) runs it: what it
is told about itself, its working folder changes, its exit code; the run folder claimed as one
job's; a start without torch or cut short by Ctrl+C leaves nothing behind."""
import json
import os
import subprocess
import sys

from conftest import FAST, PROBE_DIR, SCRIPTS, probe_env

QUIET = ["--quiet"] + FAST


def plain(args, cwd):
    return subprocess.run([sys.executable] + args, cwd=cwd, env=probe_env(), capture_output=True, text=True,
                          timeout=120)


def probed(options, args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "synctax_probe"] + options + args, cwd=cwd,
                          env=env or probe_env(), capture_output=True, text=True, timeout=120)


def said(stdout):
    """The lines the script printed about itself."""
    return [line for line in stdout.splitlines() if "=" in line]


def test_a_script_given_by_a_relative_path_is_told_what_python_tells_it(tmp_path):
    out = str(tmp_path / "run")
    args = ["where_am_i.py", "--chdir-here"]
    expected = plain(args, SCRIPTS)
    result = probed(["--out", out] + QUIET, args, SCRIPTS)
    assert expected.returncode == 0 and result.returncode == 0, result.stderr
    assert said(result.stdout) == said(expected.stdout)
    assert f"__file__={os.path.join(SCRIPTS, 'where_am_i.py')}" in result.stdout
    assert "deprecation warnings shown=1" in result.stdout  # Python's filters: shown in __main__


def test_a_script_that_changes_its_folder_keeps_its_run_folder(tmp_path):
    elsewhere = str(tmp_path / "outputs" / "2026-12-07")  # as Hydra's run folder
    result = probed(["--out", "run"] + QUIET, [os.path.join(SCRIPTS, "where_am_i.py"), "--chdir", elsewhere],
                    str(tmp_path))
    assert result.returncode == 0 and "writing failed" not in result.stderr, result.stderr
    with open(tmp_path / "run" / "end.json", encoding="utf-8") as f:
        end = json.load(f)
    assert end["exit_code"] == 0 and end["steps"] == 5
    assert not os.path.exists(os.path.join(elsewhere, "run"))


def test_a_module_runs_as_python_m_runs_it(tmp_path):
    out = str(tmp_path / "run")
    expected = plain(["-m", "trainpkg.train", "--steps", "5"], SCRIPTS)
    result = probed(["--out", out] + QUIET + ["-m", "trainpkg.train"], ["--steps", "5"], SCRIPTS)
    assert expected.returncode == result.returncode == 3, result.stderr
    assert said(result.stdout) == said(expected.stdout)
    with open(os.path.join(out, "probe.json"), encoding="utf-8") as f:
        info = json.load(f)
    assert info["script"] == os.path.join(SCRIPTS, "trainpkg", "train.py")
    with open(os.path.join(out, "end.json"), encoding="utf-8") as f:
        assert json.load(f)["steps"] == 5


def test_a_module_that_does_not_exist_is_said_before_anything_runs(tmp_path):
    result = probed(["--out", str(tmp_path / "run"), "-m", "no_such_module"], [], str(tmp_path))
    assert result.returncode == 2
    assert "cannot run module 'no_such_module': No module named no_such_module" in result.stderr
    assert not os.path.exists(tmp_path / "run")


def test_a_folder_that_holds_a_run_is_refused_unless_forced(tmp_path):
    out = str(tmp_path / "run")
    script = os.path.join(SCRIPTS, "where_am_i.py")
    assert probed(["--out", out] + QUIET, [script, "--steps", "7"], str(tmp_path)).returncode == 0
    again = probed(["--out", out] + QUIET, [script, "--steps", "3"], str(tmp_path))
    assert again.returncode == 2 and "holds a run already (probe.json); --force replaces it" in again.stderr
    with open(os.path.join(out, "end.json"), encoding="utf-8") as f:
        assert json.load(f)["steps"] == 7  # the first run, whole
    forced = probed(["--out", out, "--force"] + QUIET, [script, "--steps", "3"], str(tmp_path))
    assert forced.returncode == 0
    with open(os.path.join(out, "end.json"), encoding="utf-8") as f:
        assert json.load(f)["steps"] == 3
    assert not os.path.exists(os.path.join(out, ".synctax-probe.lock"))


def test_a_folder_another_job_writes_is_refused_and_a_stale_lock_taken_over(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    lock = out / ".synctax-probe.lock"
    script = os.path.join(SCRIPTS, "where_am_i.py")
    lock.write_text(f"{os.getpid()} {os.uname().nodename}\n")  # this test's process: alive
    busy = probed(["--out", str(out), "--force"] + QUIET, [script], str(tmp_path))
    assert busy.returncode == 2 and f"another job (pid {os.getpid()}) is writing it" in busy.stderr
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock.write_text(f"{gone.stdout.strip()} {os.uname().nodename}\n")
    taken = probed(["--out", str(out)] + FAST, [script], str(tmp_path))
    assert taken.returncode == 0, taken.stderr
    assert f"a stale lock of pid {gone.stdout.strip()} (no longer running)" in taken.stderr
    assert not lock.exists()


def fake_torch(tmp_path, body):
    """A PYTHONPATH whose torch fails to import as `body` makes it."""
    root = tmp_path / "site"
    (root / "torch").mkdir(parents=True)
    (root / "torch" / "__init__.py").write_text(body)
    env = probe_env()
    env["PYTHONPATH"] = str(root) + os.pathsep + PROBE_DIR
    return env


def test_no_torch_is_one_line_with_the_interpreter_and_leaves_no_folder(tmp_path):
    env = fake_torch(tmp_path, "raise ImportError('No module named torch._C')\n")
    result = probed(["--out", str(tmp_path / "run")], [os.path.join(SCRIPTS, "where_am_i.py")], str(tmp_path), env)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and sys.executable in result.stderr and "cannot import torch" in result.stderr
    assert "python3 -m synctax_probe" in result.stderr and "Traceback" not in result.stderr
    assert not os.path.exists(tmp_path / "run")


def test_ctrl_c_during_the_start_is_130_without_a_traceback(tmp_path):
    env = fake_torch(tmp_path, "raise KeyboardInterrupt\n")
    result = probed(["--out", str(tmp_path / "run")], [os.path.join(SCRIPTS, "where_am_i.py")], str(tmp_path), env)
    assert result.returncode == 130 and result.stderr == "" and result.stdout == ""
    assert not os.path.exists(tmp_path / "run")
