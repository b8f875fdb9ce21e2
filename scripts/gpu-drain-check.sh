#!/usr/bin/env bash
# On the GPU machine: the replay's fit to the step from an idle GPU, measured against runs. Builds,
# runs the gpu tests (TESTS=0: not), then the presets named in PRESETS (default `seed regimes`;
# PRESET@S cuts that preset's time budgets to S seconds, BUDGET_S every preset's), each followed by
# `synctax-run simulate` over its results. Results into $OUT, one archive; KEEP_STEPS=1 keeps each
# run's steps.csv in it, compressed (per-step dispatch and lag, for looking at the steps after a sync).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build.sh # sets BUILD and OUT_DIR
run=$BUILD/bin/synctax-run
status=0

touch "$OUT_DIR/ctest.log"
if [ "${TESTS:-1}" != 0 ]; then
    (cd "$BUILD" && ctest -L gpu --timeout 300 --output-on-failure >"$OUT_DIR/ctest.log" 2>&1) || status=1
    grep -E 'tests passed|tests failed|\(Failed\)' "$OUT_DIR/ctest.log" || true
fi

names=()
for token in ${PRESETS:-seed regimes}; do
    preset=${token%@*}
    budget=${BUDGET_S:-}
    [[ $token == *@* ]] && budget=${token#*@}
    name=$preset
    n=2
    while [[ " ${names[*]} " == *" $name "* ]]; do name=$preset-$n; n=$((n + 1)); done
    names+=("$name")
    "$run" print-config "$preset" >"$BUILD/$name.yaml"
    [ -n "$budget" ] && sed -i "s/^\( *\)time_budget_s: .*/\1time_budget_s: $budget/" "$BUILD/$name.yaml"
    t0=$(date +%s)
    "$run" run "$BUILD/$name.yaml" --out "$OUT_DIR/$name" --force 2>"$OUT_DIR/$name.stderr" >"$OUT_DIR/$name-table.txt" \
        || status=1
    if [ "${KEEP_STEPS:-0}" = 1 ]; then gzip -f "$OUT_DIR/$name/steps.csv"; else rm -f "$OUT_DIR/$name/steps.csv"; fi
    "$run" simulate "$OUT_DIR/$name/results.json" >"$OUT_DIR/$name-predicted-vs-measured.txt" 2>&1 || status=1
    echo "$name: $(($(date +%s) - t0)) s"
    grep -E ' -> |largest' "$OUT_DIR/$name-predicted-vs-measured.txt" | sed -e 's/; \(host x [0-9.]*, evenly\|the profiler\).*GPU ops and their gaps to G//' || true
    grep -E '^  (item|progress_bar_postfix|gpu_accumulate|item_every_n) ' "$OUT_DIR/$name-predicted-vs-measured.txt" || true
done
tar -C "$OUT_DIR" -czf "$OUT_DIR/drain-check.tar.gz" "${names[@]}" ctest.log \
    $(cd "$OUT_DIR" && ls ./*-table.txt ./*-predicted-vs-measured.txt ./*.stderr)
exit $status
