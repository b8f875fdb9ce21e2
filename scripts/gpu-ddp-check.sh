#!/usr/bin/env bash
# On the GPU machine: build against the image's LibTorch (scripts/gpu-build.sh), run the
# data-parallel tests, then data-parallel runs: 2 Gloo ranks over CUDA tensors sharing one GPU
# (ddp-cpu with device cuda:0, and small_resnet with styles on rank 0), NCCL with one rank on cuda:0,
# and the ddp preset (2 NCCL ranks, one GPU each) when the machine has two GPUs; with one it is said
# and skipped. Results and logs go to $OUT when it is set, else $BUILD/out.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build.sh # sets BUILD and OUT_DIR

(cd "$BUILD" && ctest -R 'DataParallel|cli.ddp' --timeout 300 --output-on-failure >"$OUT_DIR/ddp-ctest.log" 2>&1) \
    && tests=ok || tests=FAILED
grep -E 'tests passed|tests failed|\(Failed\)' "$OUT_DIR/ddp-ctest.log" || true

# Gloo over CUDA tensors: both ranks on cuda:0.
"$BUILD/bin/synctax-run" print-config ddp-cpu | sed 's/^device: cpu$/device: cuda:0/' >"$BUILD/ddp-gloo-cuda.yaml"
"$BUILD/bin/synctax-run" run "$BUILD/ddp-gloo-cuda.yaml" --out "$OUT_DIR/ddp-gloo-cuda" --force \
    2>"$BUILD/logs/ddp-gloo-cuda-stderr.log" | tee "$OUT_DIR/ddp-gloo-cuda-table.txt"
gloo=${PIPESTATUS[0]}
echo "gloo over CUDA tensors: exit $gloo"

# A real model over Gloo on one GPU, styles on rank 0: rank 1's all-reduce wait under each style.
"$BUILD/bin/synctax-run" print-config ddp \
    | sed -e 's/^  backend: nccl$/  backend: gloo/' -e 's/^time_budget_s: 120$/time_budget_s: '"${GLOO_BUDGET_S:-40}"'/' \
          -e '/^  - name: resnet50$/d' >"$BUILD/ddp-gloo-small-resnet.yaml"
"$BUILD/bin/synctax-run" run "$BUILD/ddp-gloo-small-resnet.yaml" --out "$OUT_DIR/ddp-gloo-small-resnet" --force \
    2>"$BUILD/logs/ddp-gloo-small-resnet-stderr.log" | tee "$OUT_DIR/ddp-gloo-small-resnet-table.txt"
gloo_sr=${PIPESTATUS[0]}
echo "gloo small_resnet on one GPU: exit $gloo_sr"

# NCCL's code path with one rank on cuda:0 (NCCL refuses two ranks on one GPU).
"$BUILD/bin/synctax-run" print-config ddp \
    | sed -e 's/^time_budget_s: 120$/time_budget_s: 20/' -e '/^  - name: resnet50$/d' >"$BUILD/ddp-nccl-1.yaml"
"$BUILD/bin/synctax-run" run "$BUILD/ddp-nccl-1.yaml" --ranks 1 --out "$OUT_DIR/ddp-nccl-1rank" --force \
    2>"$BUILD/logs/ddp-nccl-1rank-stderr.log" | tee "$OUT_DIR/ddp-nccl-1rank-table.txt"
nccl1=${PIPESTATUS[0]}
echo "nccl, 1 rank on cuda:0: exit $nccl1"
rm -f "$OUT_DIR"/ddp-*/steps.csv "$OUT_DIR"/ddp-*/rank*/steps.csv
cp "$BUILD"/logs/ddp-*-stderr.log "$OUT_DIR/" 2>/dev/null || true

gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
nccl=skipped
if [ "$gpus" -ge 2 ]; then
    "$BUILD/bin/synctax-run" run ddp --out "$OUT_DIR/ddp" --force 2>"$BUILD/logs/ddp-stderr.log" \
        | tee "$OUT_DIR/ddp-table.txt"
    nccl=${PIPESTATUS[0]}
    echo "ddp preset (nccl): exit $nccl"
else
    echo "ddp preset (nccl): skipped, it needs 2 GPUs and this machine has $gpus"
fi
[ "$tests" = ok ] && [ "$gloo" -eq 0 ] && [ "$gloo_sr" -eq 0 ] && [ "$nccl1" -eq 0 ] && { [ "$nccl" = skipped ] || [ "$nccl" -eq 0 ]; }
