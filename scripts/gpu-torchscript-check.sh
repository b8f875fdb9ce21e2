#!/usr/bin/env bash
# On the GPU machine: a user's own model through seed's styles. Writes the TorchScript test files
# with the image's python torch (tests/data/torchscript/make-models.py --newer --vision: among them
# attention-torch2.pt, saved by a PyTorch newer than Debian's LibTorch 1.13, and torchvision's
# MobileNetV3-Small, scripted), builds the runner against the image's LibTorch, runs the
# TorchScript tests, then seed's styles and settings on MobileNetV3-Small (batch 64, 3x224x224,
# 10 classes), eager and cuda_graph. Everything comes back as one archive in $OUT (torchscript.tar.gz).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-$BUILD/out}
work="$OUT_DIR/torchscript"
mkdir -p "$work/files" "$BUILD/logs"
python3 tests/data/torchscript/make-models.py "$work/files" --newer --vision | tee "$work/files.txt"
source scripts/gpu-build.sh
(cd "$BUILD" && ctest -R 'TorchScript|BadModels|cli.torchscript' --output-on-failure >"$work/ctest.log" 2>&1) && tests=ok || tests=FAILED
grep -E 'tests passed|tests failed|\(Failed\)' "$work/ctest.log" || true
# The newer file loads with the LibTorch that saved it.
cat >"$work/attention.yaml" <<'YAML'
synctax: 1
device: cpu
models:
  - torchscript: files/attention-torch2.pt
    input: {shape: [8, 16]}
    target: {classes: 10}
styles: [none]
YAML
"$BUILD/bin/synctax-run" validate "$work/attention.yaml" | tee "$work/attention-validate.txt"
# seed's settings and styles, on the user's model.
vision=mobilenet_v3_small.pt
[ -f "$work/files/$vision" ] || vision=mobilenet_v2_like.pt
sed -n '/^device:/,/^  max_steps:/p' resources/presets/seed.yaml >"$work/settings.yaml"
{
    echo "synctax: 1"
    echo "name: mobilenet-seed-styles"
    echo "description: $vision scripted with the image's torch, seed's styles"
    cat "$work/settings.yaml"
    echo "models:"
    echo "  - torchscript: files/$vision"
    echo "    input: {shape: [3, 224, 224]}"
    echo "    target: {classes: 10}"
    echo "    batch: 64"
    echo "    time_budget_s: ${MOBILENET_BUDGET_S:-60}"
    sed -n '/^styles:/,/^modes:/p' resources/presets/seed.yaml | grep -v '^modes:'
    echo "modes: [eager, cuda_graph]"
} >"$work/mobilenet.yaml"
rm "$work/settings.yaml"
"$BUILD/bin/synctax-run" run "$work/mobilenet.yaml" --out "$work/mobilenet" 2>"$work/mobilenet-stderr.log" | tee "$work/mobilenet-table.txt"
rc=${PIPESTATUS[0]}
rm -f "$work/mobilenet/steps.csv"
echo "mobilenet run: exit $rc; tests: $tests"
tar -C "$OUT_DIR" -czf "$OUT_DIR/torchscript.tar.gz" torchscript && rm -rf "$work"
[ "$tests" = ok ] && [ "$rc" -eq 0 ]
