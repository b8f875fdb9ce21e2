"""The corpus (tests/corpus): each script run unchanged under the probe finds the syncs its truth
file names, at their lines, with their counts and phases, and no other; its steps counted."""
import json
import os
import subprocess
import sys

import pytest

from conftest import FAST, probe_env

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
TRUTHS = sorted(name[:-len(".truth.json")] for name in os.listdir(CORPUS) if name.endswith(".truth.json"))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.parametrize("name", TRUTHS)
def test_a_corpus_script_s_syncs_are_found_where_they_are(tmp_path, name):
    truth = load(os.path.join(CORPUS, name + ".truth.json"))
    script = os.path.join(CORPUS, truth["script"])
    out = str(tmp_path / "run")
    plain = subprocess.run([sys.executable, script] + truth["args"], cwd=CORPUS, env=probe_env(),
                           capture_output=True, text=True, timeout=120)
    probed = subprocess.run([sys.executable, "-m", "synctax_probe", "--out", out, "--quiet"] + FAST
                            + [script] + truth["args"], cwd=CORPUS, env=probe_env(), capture_output=True, text=True,
                            timeout=120)
    assert probed.returncode == plain.returncode == 0, probed.stderr
    assert probed.stdout == plain.stdout  # the script's own output, unchanged
    end = load(os.path.join(out, "end.json"))
    # A new optimizer's first steps before it takes over the loop's are said apart (torch 1.13's own
    # step wrapper keeps the first instance of a class alive, so the first change is seen late).
    assert end["steps"] + end["steps_before_take_over"] == truth["steps"]
    if "other_optimizer_steps" in truth:
        assert end["other_optimizer_steps"] == truth["other_optimizer_steps"]
    sites = [s for s in load(os.path.join(out, "sites.json"))["sites"] if s["file"] == script]
    found = {(s["line"], s["op"]): s for s in sites}
    expected = {(s["line"], s["op"]): s for s in truth["sites"]}
    assert set(found) == set(expected), f"found {sorted(found)}, expected {sorted(expected)}"
    with open(os.path.join(out, "steps.jsonl"), encoding="utf-8") as f:
        steps = [json.loads(line) for line in f]
    for key, want in expected.items():
        site = found[key]
        assert site["count"] == want["count"], (key, site)
        assert (site["user_file"], site["user_line"]) == (script, want["line"])
        phases = {sync[3] for step in steps for sync in step["syncs"] if sync[1] == site["id"]}
        assert phases == set(want["phases"]), (key, phases)
