#!/usr/bin/env bash
# On the GPU machine: build the runner and tests against the LibTorch inside the image's python
# torch (no Qt there), run the tests (TESTS: a ctest label, default gpu; `all` for every test),
# then a preset (seed).
# The test log and the preset's results go to $OUT when it is set, else to $BUILD/out; build logs
# and steps.csv stay in $BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-$BUILD/out}
PRESET=${PRESET:-seed}
mkdir -p "$OUT_DIR" "$BUILD/logs"
source scripts/gpu-build.sh
t1=$(date +%s)

TESTS=${TESTS:-gpu}
label=(-L "$TESTS")
[ "$TESTS" = all ] && label=()
(cd "$BUILD" && ctest "${label[@]}" --timeout 300 --output-on-failure -j4 >"$OUT_DIR/ctest.log" 2>&1) && tests=ok || tests=FAILED
t2=$(date +%s)
grep -E 'tests passed|tests failed|\(Failed\)|\(SKIPPED\)|Not Run' "$OUT_DIR/ctest.log" || true
(cd "$BUILD" && ctest -L gpu -N | tail -1)
echo "tests: $tests ($((t2 - t1)) s)"

out="$OUT_DIR/$PRESET"
# RUN_ARGS: more options for the run (e.g. --kineto DIR).
read -r -a run_args <<<"${RUN_ARGS:-}"
"$BUILD/bin/synctax-run" run "$PRESET" --out "$out" "${run_args[@]}" 2>"$BUILD/logs/$PRESET-stderr.log" | tee "$out-table.txt"
rc=${PIPESTATUS[0]}
mv "$out/steps.csv" "$BUILD/logs/$PRESET-steps.csv"
t3=$(date +%s)
echo "$PRESET preset: exit $rc, $((t3 - t2)) s"
# TAR=1: the preset's folder in one archive (what comes back from the GPU machine is a few files).
if [ "${TAR:-0}" = 1 ]; then
    tar -C "$OUT_DIR" -czf "$OUT_DIR/$PRESET.tar.gz" "$PRESET" && rm -rf "$out"
fi
[ "$tests" = ok ] && [ "$rc" -eq 0 ]
