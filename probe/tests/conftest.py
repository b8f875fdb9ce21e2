"""Runs the probe from this checkout (no install needed) under the Python that runs pytest."""
import os
import subprocess
import sys

import pytest

PROBE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts")
if PROBE_DIR not in sys.path:
    sys.path.insert(0, PROBE_DIR)


def probe_env(extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = PROBE_DIR + os.pathsep + env.get("PYTHONPATH", "")
    for key in ("RANK", "LOCAL_RANK", "WORLD_SIZE"):
        env.pop(key, None)
    # The scripts' answers are those of a machine without CUDA (CI's), on a GPU machine too.
    env["CUDA_VISIBLE_DEVICES"] = ""
    env.update(extra or {})
    return env


def probe_command(options, script, script_args=()):
    return [sys.executable, "-m", "synctax_probe", *options, os.path.join(SCRIPTS, script), *script_args]


def run_probe(options, script, script_args=(), cwd=None, timeout=120):
    return subprocess.run(probe_command(options, script, script_args), cwd=cwd, env=probe_env(),
                          capture_output=True, text=True, timeout=timeout)


def site_lines(script):
    """{op: line} from the fixture's `# site: OP` comments."""
    lines = {}
    with open(os.path.join(SCRIPTS, script), encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if "# site: " in text:
                lines[text.split("# site: ")[1].strip()] = number
    return lines


# Short stages so that a CPU run of a few hundred milliseconds goes through all of them, the capture
# right after the warm-up; every block a calibration block, timed step by step (test_run_folder
# checks the default's counted blocks, test_capture the blocks before the capture). The corpus's
# checker (corpus/check.py, run on the GPU too without pytest) holds the list.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"))
from check import FAST  # noqa: E402


@pytest.fixture
def scripts_dir():
    return SCRIPTS
