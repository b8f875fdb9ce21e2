#!/usr/bin/env bash
# On the GPU machine: where does a block's noise come from? Runs bench/noise/*.yaml under
# variants (the process pinned to one or two CPUs, one intra-op thread, shorter and longer
# blocks, the plain run twice) and prints, per variant and model, the block-to-block noise and
# the intervals it gave (bench/noise_summary.py). BUILD: a build folder to (re)use.
# VARIANTS: a subset, e.g. "default pin1".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-/tmp/synctax-noise}
VARIANTS=${VARIANTS:-"default pin1 pin2 omp1 short long default2"}
mkdir -p "$OUT_DIR" "$BUILD"

echo "cpus: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
[ -x "$BUILD/bin/synctax-run" ] || scripts/gpu/validate.sh --only build --build "$BUILD" --out "$BUILD/validate"

run_variant() {
    local name=$1 config=bench/noise/base.yaml
    local -a prefix=()
    case $name in
        pin1) prefix=(taskset -c 2) ;;
        pin2) prefix=(taskset -c 2,3) ;;
        omp1) prefix=(env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1) ;;
        short) config=bench/noise/short.yaml ;;
        long) config=bench/noise/long.yaml ;;
    esac
    local dir="$OUT_DIR/noise/$name" start steal0 steal1
    steal0=$(awk '/^cpu /{print $9}' /proc/stat)
    start=$(date +%s)
    "${prefix[@]}" "$BUILD/bin/synctax-run" run "$config" --out "$dir" ${RUN_ARGS:-} >"$dir.table.txt" 2>"$dir.stderr.txt" || true
    steal1=$(awk '/^cpu /{print $9}' /proc/stat)
    gzip -f "$dir/steps.csv" 2>/dev/null || true
    echo "$name: $(($(date +%s) - start)) s, steal $((steal1 - steal0)) ticks"
}
mkdir -p "$OUT_DIR/noise"
for v in $VARIANTS; do run_variant "$v"; done
python3 bench/noise_summary.py "$OUT_DIR/noise" $VARIANTS | tee "$OUT_DIR/noise-summary.txt"
