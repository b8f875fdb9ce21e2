#!/usr/bin/env bash
# On the GPU machine: the data-parallel runs' predictions from a captured step. 2 Gloo ranks over
# CUDA tensors on cuda:0 (small_resnet, styles on rank 0, then on every rank), and NCCL with one
# rank; each rank table's `pred` column comes from the barrier replay of the single-process run's
# captured step. Tables and results into $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build.sh # sets BUILD and OUT_DIR
run=$BUILD/bin/synctax-run
status=0
for preset in ddp ddp-all-ranks; do
    "$run" print-config $preset | sed -e 's/^  backend: nccl$/  backend: gloo/' \
        -e 's/^time_budget_s: 120$/time_budget_s: '"${GLOO_BUDGET_S:-30}"'/' -e '/^  - name: resnet50$/d' \
        >"$BUILD/$preset-gloo.yaml"
    "$run" run "$BUILD/$preset-gloo.yaml" --out "$OUT_DIR/$preset-gloo" --force 2>"$OUT_DIR/$preset-gloo.stderr" \
        | sed -n '/^per rank/,$p' | tee "$OUT_DIR/$preset-gloo-ranks.txt" || status=1
done
"$run" print-config ddp | sed -e 's/^time_budget_s: 120$/time_budget_s: 20/' -e '/^  - name: resnet50$/d' >"$BUILD/nccl-1.yaml"
"$run" run "$BUILD/nccl-1.yaml" --ranks 1 --out "$OUT_DIR/nccl-1rank" --force 2>"$OUT_DIR/nccl-1rank.stderr" \
    | sed -n '/^per rank/,$p' | tee "$OUT_DIR/nccl-1rank-ranks.txt" || status=1
rm -f "$OUT_DIR"/*/steps.csv "$OUT_DIR"/*/*/steps.csv
tar -C "$OUT_DIR" -czf "$OUT_DIR/ddp-predict.tar.gz" ddp-gloo ddp-all-ranks-gloo nccl-1rank
exit $status
