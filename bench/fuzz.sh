#!/usr/bin/env bash
# Fuzzes the config loader and the results loader with libFuzzer (clang, ASan + UBSan) for SECONDS
# each (default 60), starting from the presets, the bad-config and the bad-results corpora.
# Crashing inputs land in build-fuzz/; add each one to its corpus in tests/data/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-60}
out=build-fuzz
[ -f build/resources/presetdata.cpp ] || { echo "build first (make build): the presets are generated there"; exit 2; }
mkdir -p "$out/config-corpus" "$out/results-corpus"
cp resources/presets/*.yaml tests/data/bad-configs/*.yaml "$out/config-corpus/"
cp tests/data/bad-results/*.json "$out/results-corpus/"
loaders="core/config/configloader.cpp core/config/yamlchecker.cpp core/config/configerror.cpp core/config/presets.cpp core/config/stylecatalog.cpp
    core/config/experimentconfig.cpp core/config/modelcatalog.cpp build/resources/presetdata.cpp"
flags="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I."
clang++ $flags tests/fuzz/fuzz_configloader.cpp $loaders -lyaml-cpp -o "$out/fuzz_configloader"
clang++ $flags tests/fuzz/fuzz_resultsloader.cpp core/files/resultsloader.cpp core/files/resultsjson.cpp core/gpu/gpuclocks.cpp \
    core/analysis/statistics.cpp $loaders -lyaml-cpp -ldl -o "$out/fuzz_resultsloader"
cd "$out"
for target in configloader resultsloader; do
    corpus=${target%loader}-corpus
    echo "fuzz_$target, $SECONDS_TO_RUN s:"
    ./fuzz_$target -max_total_time="$SECONDS_TO_RUN" -max_len=16384 -timeout=5 -print_final_stats=1 "$corpus" 2>&1 \
        | grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|ERROR|SUMMARY|Done' || true
done
