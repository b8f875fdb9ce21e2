#!/usr/bin/env bash
# On the GPU machine, after gpu-torchscript-check.sh and gpu-ddp-check.sh: NCCL's code path with one
# rank on cuda:0, the Gloo small_resnet run with styles on every rank, the user's-model run in eager
# mode with a longer budget (its first run's noise floor was 11%), and the regimes preset a second
# time (the CUDA graph regime labels in two runs). Results into $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build.sh # sets BUILD and OUT_DIR
run=$BUILD/bin/synctax-run
status=0

"$run" print-config ddp | sed -e 's/^time_budget_s: 120$/time_budget_s: 20/' -e '/^  - name: resnet50$/d' >"$BUILD/nccl-1.yaml"
"$run" run "$BUILD/nccl-1.yaml" --ranks 1 --out "$OUT_DIR/nccl-1rank" --force 2>"$OUT_DIR/nccl-1rank.stderr" \
    | tail -12 || status=1

"$run" print-config ddp-all-ranks | sed -e 's/^  backend: nccl$/  backend: gloo/' \
    -e 's/^time_budget_s: 120$/time_budget_s: '"${GLOO_BUDGET_S:-30}"'/' -e '/^  - name: resnet50$/d' >"$BUILD/gloo-all.yaml"
"$run" run "$BUILD/gloo-all.yaml" --out "$OUT_DIR/gloo-all-ranks" --force 2>"$OUT_DIR/gloo-all-ranks.stderr" \
    | sed -n '/^per rank/,$p' || status=1

python3 tests/data/torchscript/make-models.py "$BUILD/mobilenet" --vision >/dev/null
{
    echo "synctax: 1"
    echo "name: mobilenet-seed-styles-eager"
    echo "description: torchvision MobileNetV3-Small scripted with the image's torch, seed's styles, eager"
    sed -n '/^device:/,/^  max_steps:/p' resources/presets/seed.yaml
    echo "models:"
    echo "  - torchscript: mobilenet_v3_small.pt"
    echo "    input: {shape: [3, 224, 224]}"
    echo "    target: {classes: 10}"
    echo "    batch: 64"
    echo "    time_budget_s: ${MOBILENET_BUDGET_S:-180}"
    sed -n '/^styles:/,/^modes:/p' resources/presets/seed.yaml
} >"$BUILD/mobilenet/eager.yaml"
"$run" run "$BUILD/mobilenet/eager.yaml" --out "$OUT_DIR/mobilenet-eager" --force \
    2>"$OUT_DIR/mobilenet-eager.stderr" | tee "$OUT_DIR/mobilenet-eager-table.txt" | tail -30 || status=1

"$run" run regimes --out "$OUT_DIR/regimes" --force 2>"$OUT_DIR/regimes.stderr" | tee "$OUT_DIR/regimes-table.txt" \
    | grep -E 'regime|rounds' || status=1
rm -f "$OUT_DIR"/*/steps.csv "$OUT_DIR"/*/*/steps.csv
tar -C "$OUT_DIR" -czf "$OUT_DIR/second-check.tar.gz" nccl-1rank gloo-all-ranks mobilenet-eager regimes
exit $status
