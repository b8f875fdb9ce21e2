#!/usr/bin/env bash
# On the GPU machine: does pinning the runner to CPUs steady the host? Builds, then runs the three
# models eager (none and item, TIME_S seconds each) under each CPU setting in CPUSETS ("all" = no
# pinning; otherwise a taskset list), in the order given and then reversed, each run followed by
# `synctax-run simulate`; a pure-CPU probe times a fixed loop under each setting. Prints
# scripts/host-steadiness.py's table over every run; results into $OUT as one archive alone (the
# device's folder brings back a few files only).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build.sh # sets BUILD and OUT_DIR
run=$BUILD/bin/synctax-run
read -r -a sets <<<"${CPUSETS:-all 2 2-5}"
{ lscpu; echo; cat /proc/loadavg; echo; nvidia-smi topo -m; echo; ps -eo pid,pcpu,nlwp,comm --sort=-pcpu | head -15; } \
    >"$OUT_DIR/host-facts.txt" 2>&1 || true
grep -E 'Model name|Thread|Core|Socket|NUMA node|MHz' "$OUT_DIR/host-facts.txt" || true
"$run" print-config regimes | sed -e "s/^\( *\)time_budget_s: .*/\1time_budget_s: ${TIME_S:-6}/" \
    -e 's/^modes: .*/modes: [eager]/' -e 's/^name: .*/name: steadiness/' >"$BUILD/steadiness.yaml"
pinned() { if [ "$1" = all ]; then "${@:2}"; else taskset -c "$1" "${@:2}"; fi; }
probe='import time
t = []
for _ in range(300):
    t0 = time.perf_counter(); sum(range(100000)); t.append((time.perf_counter() - t0) * 1e3)
t.sort(); print("cpu probe ms p10 %.3f p50 %.3f p90 %.3f" % (t[30], t[150], t[270]))'
order=("${sets[@]}")
for ((i = ${#sets[@]} - 1; i >= 0; i--)); do order+=("${sets[i]}"); done
names=()
n=0
for set in "${order[@]}"; do
    n=$((n + 1))
    name=run$n-cpus-${set}
    names+=("$name")
    echo "$name: $(pinned "$set" python3 -c "$probe")"
    t0=$(date +%s)
    pinned "$set" "$run" run "$BUILD/steadiness.yaml" --out "$OUT_DIR/$name" --force >"$OUT_DIR/$name-table.txt" 2>"$OUT_DIR/$name.stderr"
    "$run" simulate "$OUT_DIR/$name/results.json" >"$OUT_DIR/$name-predicted-vs-measured.txt" 2>&1 || true
    gzip -f "$OUT_DIR/$name/steps.csv"
    echo "$name: $(($(date +%s) - t0)) s; labels: $(grep -E '/eager: replay' "$OUT_DIR/$name-predicted-vs-measured.txt" | sed -E 's|^([a-z0-9_]+)/eager: replay of [0-9]+ launches, D ([0-9.]+) ms, G ([0-9.]+) ms.* -> ([a-z_]+).*|\1 D \2 G \3 \4;|' | tr '\n' ' ')"
done
python3 scripts/host-steadiness.py "${names[@]/#/$OUT_DIR/}" | tee "$OUT_DIR/steadiness.txt"
tar -C "$OUT_DIR" -czf "$BUILD/steadiness.tar.gz" "${names[@]}" host-facts.txt steadiness.txt \
    $(cd "$OUT_DIR" && ls ./*-table.txt ./*-predicted-vs-measured.txt ./*.stderr)
rm -rf "${OUT_DIR:?}"/*
mv "$BUILD/steadiness.tar.gz" "$OUT_DIR/"
