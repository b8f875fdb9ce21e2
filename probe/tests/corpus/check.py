#!/usr/bin/env python3
"""Each corpus script run twice, unchanged: plainly, then under `python3 -m synctax_probe`, and the
run folder held to the script's truth file: its steps counted, every expected sync site at its
line with its count and phases, no other site in the script's own file, the script's output and
exit code the same as without the probe. test_corpus.py checks every script this way on the CPU;
on a GPU machine (scripts/gpu/validate.sh --only corpus):

    python3 probe/tests/corpus/check.py [--cuda] [--out DIR] [NAME ...]

--cuda trains on the GPU (SYNCTAX_CORPUS_DEVICE=cuda), where every listed site is a real wait.
Prints one line a script and exits 1 when any misses its truth."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CORPUS = os.path.dirname(os.path.abspath(__file__))
PROBE_DIR = os.path.dirname(os.path.dirname(CORPUS))
# Short stages, so that a run of a few hundred milliseconds goes through all of them; every block a
# calibration block, timed step by step.
FAST = ["--warmup-steps", "5", "--warmup-max-steps", "5", "--profile-steps", "3", "--capture-after-blocks", "0",
        "--settle-steps", "2", "--block-steps", "10", "--block-ms", "0", "--calib-every", "1"]


def names():
    return sorted(name[:-len(".truth.json")] for name in os.listdir(CORPUS) if name.endswith(".truth.json"))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check(name, out, env, options=FAST):
    """Runs NAME plainly and under the probe (run folder `out`); what was expected, found, missed and
    found falsely, and `problems`: every way the run misses its truth (empty: none)."""
    truth = load(os.path.join(CORPUS, name + ".truth.json"))
    script = os.path.join(CORPUS, truth["script"])
    plain = subprocess.run([sys.executable, script] + truth["args"], cwd=CORPUS, env=env, capture_output=True,
                           text=True, timeout=300)
    probed = subprocess.run([sys.executable, "-m", "synctax_probe", "--out", out, "--quiet"] + options + [script]
                            + truth["args"], cwd=CORPUS, env=env, capture_output=True, text=True, timeout=300)
    result = {"name": name, "plain_exit": plain.returncode, "probed_exit": probed.returncode,
              "same_output": probed.stdout == plain.stdout, "expected": len(truth["sites"]), "found": 0,
              "false": [], "missed": [], "problems": []}
    problems = result["problems"]
    if probed.returncode != 0 or plain.returncode != 0:
        problems.append(f"exit {plain.returncode} plain, {probed.returncode} under the probe: {probed.stderr[-800:]}")
        return result
    if not result["same_output"]:
        problems.append("the script's output differs under the probe")
    end = load(os.path.join(out, "end.json"))
    # A new optimizer's first steps before it takes over the loop's are said apart.
    steps = end["steps"] + end["steps_before_take_over"]
    if steps != truth["steps"]:
        problems.append(f"{steps} steps counted, {truth['steps']} expected")
    if "other_optimizer_steps" in truth and end["other_optimizer_steps"] != truth["other_optimizer_steps"]:
        problems.append(f"{end['other_optimizer_steps']} other optimizer steps, {truth['other_optimizer_steps']} expected")
    sites = [s for s in load(os.path.join(out, "sites.json"))["sites"] if s["file"] == script]
    found = {(s["line"], s["op"]): s for s in sites}
    expected = {(s["line"], s["op"]): s for s in truth["sites"]}
    result["false"] = sorted(set(found) - set(expected))
    result["missed"] = sorted(set(expected) - set(found))
    result["found"] = len(set(found) & set(expected))
    if result["false"] or result["missed"]:
        problems.append(f"sites found falsely {result['false']}, missed {result['missed']}")
    with open(os.path.join(out, "steps.jsonl"), encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    for key in sorted(set(found) & set(expected)):
        site, want = found[key], expected[key]
        if site["count"] != want["count"]:
            problems.append(f"{key}: {site['count']} syncs, {want['count']} expected")
        if (site["user_file"], site["user_line"]) != (script, want["line"]):
            problems.append(f"{key}: the user's line {site['user_file']}:{site['user_line']}")
        phases = {sync[3] for step in lines for sync in step["syncs"] if sync[1] == site["id"]}
        if phases != set(want["phases"]):
            problems.append(f"{key}: in phases {sorted(phases)}, {want['phases']} expected")
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", help="scripts of the corpus (default: all)")
    p.add_argument("--cuda", action="store_true", help="train on the GPU (SYNCTAX_CORPUS_DEVICE=cuda)")
    p.add_argument("--out", help="keep the run folders here (default: a temporary folder)")
    args = p.parse_args()
    env = dict(os.environ, PYTHONPATH=PROBE_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["SYNCTAX_CORPUS_DEVICE"] = "cuda" if args.cuda else "cpu"
    if not args.cuda:
        env["CUDA_VISIBLE_DEVICES"] = ""
    base = args.out or tempfile.mkdtemp(prefix="synctax-corpus-")
    missed = 0
    print(f"{'script':<24} {'sites expected':>14} {'found':>6} {'false':>6}  {'output, exit':<22} problems")
    for name in args.names or names():
        r = check(name, os.path.join(base, name), env)
        missed += bool(r["problems"])
        same = ("same" if r["same_output"] else "DIFFERS") + f", {r['plain_exit']}/{r['probed_exit']}"
        print(f"{name:<24} {r['expected']:>14} {r['found']:>6} {len(r['false']):>6}  {same:<22} "
              + ("; ".join(r["problems"]) or "-"), flush=True)
    print(f"{missed} of {len(args.names or names())} scripts missed their truth; run folders in {base}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
