#!/usr/bin/env bash
# On the GPU machine: data for calibrating the replay's host against the loops it predicts.
#  1. The Python loops' host time phase by phase, unprofiled, and their traces (scripts/phase-times.py).
#  2. The runner's presets (PRESETS, default `seed@25 middle-regime@20`) with each run's steps.csv kept
#     (scripts/gpu-drain-check.sh with KEEP_STEPS=1).
# Into $OUT: phases.tar.gz and drain-check.tar.gz.
set -euo pipefail
cd "$(dirname "$0")/.."
final=${OUT:-/tmp/synctax-calibration-out}
work=/tmp/synctax-calibration
rm -rf "$work" && mkdir -p "$work" "$final"
status=0
python3 scripts/phase-times.py "$work/phases" 2>&1 | grep -v -i warn | tee "$work/phases.log" || status=1
tar -C "$work" -czf "$final/phases.tar.gz" phases phases.log
OUT=$work/drain TESTS=${TESTS:-0} KEEP_STEPS=1 PRESETS=${PRESETS:-seed@25 middle-regime@20} \
    scripts/gpu-drain-check.sh || status=1
cp "$work/drain/drain-check.tar.gz" "$final/"
ls -la "$final"
exit $status
