#!/usr/bin/env bash
# What docs/validation.md claims, measured again on a GPU machine whose LibTorch is python3's torch
# (no Qt needed). Builds the runner and the gpu tests without the GUI, runs the gpu-labelled tests,
# the presets seed and middle-regime with the queue model's prediction against each measured cell
# (synctax-run simulate over the run's results), and the Python what-if check (the loops measured
# and recorded by `scripts/gpu/whatif-traces.py record`, then its `compare` with each block's
# phases, as `synctax-run trace --phases-file`); prints one summary table last.
#
#   scripts/gpu/validate.sh [--only PARTS] [--out DIR] [--build DIR] [--budget S] [--archive]
#                           [--cpus LIST] [--repeats N]
#
#   --only PARTS  comma-separated, of: build tests seed middle-regime python probe probe-cost corpus
#                 (default: all of them). probe (scripts/gpu/probe-validate.py, about 9 minutes),
#                 probe-cost (bench/probe/process_cost.py, about 9 minutes) and corpus
#                 (probe/tests/corpus/check.py --cuda, about a minute) need no build; probe's what-if
#                 needs one.
#                 The build runs before any other part (nothing to do when it is up to date).
#   --out DIR     results, logs and summary.txt (default: $OUT, else BUILD/validate)
#   --build DIR   the build folder, reused by a later call (default: $BUILD, else /tmp/synctax-gpu-build)
#   --budget S    cut every time budget of the presets to S seconds: quicker, wider intervals (the
#                 claims are at the presets' own budgets)
#   --archive     leave summary.txt and one validate.tar.gz of everything else in the out folder
#   --cpus LIST   probe and probe-cost: every process, plain and probed alike, on these CPUs (0-7)
#   --repeats N   probe: pairs of processes (plain, probed) a cell (default 1)
#
# Headers the machine lacks (RapidJSON; Gloo's, for data-parallel runs) are taken from .gpu-deps/
# when it is there (scripts/gpu/carry-headers.sh fills it on a Debian machine). On an H200 the
# presets take about 4 and 5 minutes, the Python loops longer. Exit status: 0 every part ran and met
# its goal, 1 a part failed or missed its goal, 2 bad usage or no CUDA device.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; }

parts=build,tests,seed,middle-regime,python,probe,probe-cost,corpus
out=${OUT:-}
build=${BUILD:-/tmp/synctax-gpu-build}
budget=
archive=0
pin=()
repeats=()
while [ $# -gt 0 ]; do
    case $1 in
    --only) parts=${2:?--only needs a list}; shift 2 ;;
    --only=*) parts=${1#*=}; shift ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    --budget) budget=${2:?--budget needs seconds}; shift 2 ;;
    --budget=*) budget=${1#*=}; shift ;;
    --archive) archive=1; shift ;;
    --cpus) pin=(--cpus "${2:?--cpus needs a list}"); shift 2 ;;
    --repeats) repeats=(--repeats "${2:?--repeats needs a number}"); shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "validate.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done
for part in ${parts//,/ }; do
    case $part in build | tests | seed | middle-regime | python | probe | probe-cost | corpus) ;;
    *) echo "validate.sh: unknown part: $part (build, tests, seed, middle-regime, python, probe, probe-cost, corpus)" >&2
        exit 2 ;;
    esac
done
if [ -n "$budget" ] && ! [[ $budget =~ ^[1-9][0-9]*$ ]]; then
    echo "validate.sh: --budget takes whole seconds, not $budget" >&2
    exit 2
fi
wants() { [[ ",$parts," == *",$1,"* ]]; }
out=${out:-$build/validate}
mkdir -p "$out" "$build/logs"
runner=$build/bin/synctax-run
export CMAKE_POLICY_VERSION_MINIMUM=3.5 PYTHONUNBUFFERED=1

# One row per check: name, what came out, goal, verdict (ok, met, MISSED, FAILED).
rows=()
status=0
row() {
    rows+=("$1|$2|$3|$4")
    case $4 in ok | met) ;; *) status=1 ;; esac
}

{
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "devices", torch.cuda.device_count())'
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null
    echo "cpus $(nproc), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
    echo "code $(git rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')"
} | tee "$out/environment.txt"
if [ "$parts" != build ] && ! python3 -c 'import sys, torch; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
    echo "validate.sh: torch sees no CUDA device; these checks need one" >&2
    exit 2
fi

# The build: the runner always (unless probe-cost alone is asked for: it needs none), the gpu tests
# when they run or when the build alone is asked for.
if [ "$parts" != probe-cost ] && [ "$parts" != probe ] && [ "$parts" != corpus ]; then
    targets=(synctax-run)
    if wants tests || [ "$parts" = build ]; then targets+=(test_gpu); fi
    t0=$(date +%s)
    torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
    torch_include=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
    cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_prefix" -DSYNCTAX_BUILD_GUI=OFF)
    [ -d .gpu-deps/include/rapidjson ] && cmake_args+=(-DRAPIDJSON_INCLUDE_DIR="$PWD/.gpu-deps/include")
    if [ ! -f "$torch_include/gloo/rendezvous/store.h" ] && [ -d .gpu-deps/gloo/include/gloo ]; then
        cmake_args+=(-DCMAKE_INCLUDE_PATH="$PWD/.gpu-deps/gloo/include")
    fi
    if ! cmake -S . -B "$build" "${cmake_args[@]}" >"$build/logs/configure.log" 2>&1; then
        tail -n 40 "$build/logs/configure.log"
        row build "configure failed ($build/logs/configure.log)" "builds" FAILED
    elif ! cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >"$build/logs/build.log" 2>&1; then
        grep -A5 -E 'error|FAILED' "$build/logs/build.log" | head -n 60
        row build "failed ($build/logs/build.log)" "builds" FAILED
    else
        grep 'SyncTax:' "$build/logs/configure.log"
        row build "${targets[*]} in $(($(date +%s) - t0)) s" "builds" ok
    fi
fi
built=0
[ -x "$runner" ] && [ "${#rows[@]}" -gt 0 ] && [ "${rows[0]##*|}" = ok ] && built=1

if wants tests; then
    if [ $built = 1 ]; then
        (cd "$build" && ctest -L gpu --timeout 300 --output-on-failure) >"$out/gpu-ctest.log" 2>&1
        # "100% tests passed out of 8", or "75% tests passed, 2 tests failed out of 8"
        summary=$(grep -E 'tests passed' "$out/gpu-ctest.log")
        total=$(sed -nE 's/.* out of ([0-9]+).*/\1/p' <<<"$summary")
        failed=$(sed -nE 's/.* ([0-9]+) tests failed.*/\1/p' <<<"$summary")
        failed=${failed:-0}
        skipped=$(grep -c '\*\*\*Skipped' "$out/gpu-ctest.log")
        verdict=met
        [ -z "$total" ] || [ "$total" = 0 ] || [ "$failed" != 0 ] || [ "$skipped" != 0 ] && verdict=FAILED
        row "gpu tests" "$((${total:-0} - failed - skipped)) of ${total:-0} passed, $skipped skipped" \
            "all pass" $verdict
        grep -E '\*\*\*|Not Run' "$out/gpu-ctest.log" # each test that failed, crashed, timed out or skipped
    else
        row "gpu tests" "not run: no build" "all pass" FAILED
    fi
fi

# A preset, then the queue model's prediction against every measured cell of it.
preset() {
    local name=$1 config=$1 t0 rc within largest
    if [ $built = 0 ]; then
        row "$name" "not run: no build" "every cell within 2 points" FAILED
        return
    fi
    if [ -n "$budget" ]; then
        config=$out/$name.yaml
        "$runner" print-config "$name" >"$config"
        sed -i "s/^\( *\)time_budget_s: .*/\1time_budget_s: $budget/" "$config"
    fi
    t0=$(date +%s)
    echo "$name: running (synctax-run run $name)"
    "$runner" run "$config" --out "$out/$name" --force >"$out/$name-table.txt" 2>"$out/$name.stderr"
    rc=$?
    [ -f "$out/$name/steps.csv" ] && gzip -f "$out/$name/steps.csv"
    "$runner" simulate "$out/$name/results.json" >"$out/$name-predicted-vs-measured.txt" 2>&1
    grep -E ' -> |^largest|^within' "$out/$name-predicted-vs-measured.txt" | sed -e 's/: replay of .* -> / -> /'
    within=$(grep -oE 'within 2 pp: [0-9]+ of [0-9]+' "$out/$name-predicted-vs-measured.txt" | grep -oE '[0-9]+ of [0-9]+')
    largest=$(grep -oE 'largest \|predicted - measured\|: [0-9.]+ pp' "$out/$name-predicted-vs-measured.txt" | grep -oE '[0-9.]+ pp')
    local goal="every cell within 2 points" what="${within:-?} within 2 points, largest ${largest:-?}"
    what+="; exit $rc, $(($(date +%s) - t0)) s${budget:+, budgets $budget s}"
    if [ -z "$within" ]; then
        row "$name" "no prediction (exit $rc; $out/$name.stderr)" "$goal" FAILED
    elif [ "${within% of *}" = "${within#* of }" ]; then
        row "$name" "$what" "$goal" met
    else
        row "$name" "$what" "$goal" MISSED
    fi
}
wants seed && preset seed
wants middle-regime && preset middle-regime

if wants python; then
    goal="every prediction within 3 points"
    if [ $built = 0 ]; then
        row "python what-if" "not run: no build" "$goal" FAILED
    else
        t0=$(date +%s)
        rm -rf "$out/python"
        echo "python: measuring and recording the loops (python3 scripts/gpu/whatif-traces.py record)"
        python3 scripts/gpu/whatif-traces.py record "$out/python" --recordings 2 --no-stack-too >"$out/python.log" 2>&1
        rc=$?
        python3 scripts/gpu/whatif-traces.py compare "$out/python" "$runner" --phases phases_idle_us --spread phases_idle \
            --json "$out/python-compare.json" >"$out/python-compare.txt" 2>&1
        tail -n 2 "$out/python-compare.txt"
        within=$(sed -nE 's/^within 3 points: ([0-9]+ of [0-9]+).*/\1/p' "$out/python-compare.txt")
        largest=$(grep -oE '^largest \|predicted - measured\|: [0-9.]+ pp' "$out/python-compare.txt" | grep -oE '[0-9.]+ pp')
        what="${within:-?} within 3 points, largest ${largest:-?}; $(($(date +%s) - t0)) s"
        if [ -z "$within" ]; then
            row "python what-if" "no comparison (loops exit $rc; $out/python.log, $out/python-compare.txt)" "$goal" FAILED
        elif [ "${within% of *}" = "${within#* of }" ]; then
            row "python what-if" "$what" "$goal" met
        else
            row "python what-if" "$what" "$goal" MISSED
        fi
    fi
fi

if wants probe; then
    goal="step 3%, after-effect 1% every cell; A/B, what-if 9 of 10"
    t0=$(date +%s)
    rm -rf "$out/probe"
    echo "probe: the validation loops plainly and under python3 -m synctax_probe --ab item (scripts/gpu/probe-validate.py)"
    runner_arg=()
    [ -x "$runner" ] && runner_arg=(--runner "$runner")
    python3 scripts/gpu/probe-validate.py "$out/probe" "${runner_arg[@]}" "${pin[@]}" "${repeats[@]}" \
        >"$out/probe-validate.txt" 2>&1
    rc=$?
    tail -n 16 "$out/probe-validate.txt"
    # "step within 3%: 12 of 12; A/B within 3 points or inside the plain interval: 11 of 12; what-if ..."
    what=$(tail -n 1 "$out/probe-validate.txt" | sed -E 's/ within 3 points or inside the plain interval//; s/ likewise//')
    if ! grep -q '^step within' "$out/probe-validate.txt"; then
        row "probe" "no comparison ($out/probe-validate.txt)" "$goal" FAILED
    elif [ $rc = 0 ]; then
        row "probe" "$what; $(($(date +%s) - t0)) s" "$goal" met
    else
        row "probe" "$what; $(($(date +%s) - t0)) s" "$goal" MISSED
    fi
fi

if wants probe-cost; then
    goal="within 1% (in its CI), 1 and 15 ms loops"
    t0=$(date +%s)
    echo "probe cost: plain and probed processes in turn (bench/probe/process_cost.py)"
    python3 bench/probe/process_cost.py --pairs 10 --seconds 8 "${pin[@]}" --json "$out/probe-cost.json" \
        tiny_mlp resnet34:--side,160,--batch,64 >"$out/probe-cost.txt" 2>&1
    python3 bench/probe/process_cost.py --pairs 3 --seconds 8 "${pin[@]}" resnet50:--batch,32 \
        >>"$out/probe-cost.txt" 2>&1
    grep '^process cost' "$out/probe-cost.txt"
    # "process cost tiny_mlp : step +0.4% [-0.6, +1.2] on a 1.047 ms step; ..." for the first two loops
    verdict=met
    what=""
    while read -r loop pct low high; do
        what+="$loop $pct% [$low, $high]; "
        awk -v l="$low" -v h="$high" 'BEGIN { exit !(l <= 1.0 && h >= -1.0) }' || verdict=MISSED
    done < <(sed -nE 's/^process cost ([a-z0-9_]+) .*: step ([+-]?[0-9.]+)% \[([+-]?[0-9.]+), ([+-]?[0-9.]+)\].*/\1 \2 \3 \4/p' \
        "$out/probe-cost.txt" | head -n 2)
    if [ -z "$what" ]; then
        row "probe cost" "no estimate ($out/probe-cost.txt)" "$goal" FAILED
    else
        row "probe cost" "${what}$(($(date +%s) - t0)) s" "$goal" $verdict
    fi
fi

if wants corpus; then
    # The probe's corpus on the GPU: every script's sites at their lines, no other, output unchanged.
    t0=$(date +%s)
    echo "corpus: probe/tests/corpus/check.py --cuda"
    python3 probe/tests/corpus/check.py --cuda --out "$out/corpus" >"$out/corpus.txt" 2>&1
    corpus_status=$?
    cat "$out/corpus.txt"
    summary=$(tail -n 1 "$out/corpus.txt" | sed 's/; run folders in.*//')
    if [ $corpus_status -eq 0 ]; then
        row corpus "$summary, $(($(date +%s) - t0)) s" "every script's truth" met
    else
        row corpus "${summary:-no result ($out/corpus.txt)}" "every script's truth" MISSED
    fi
fi

{
    echo
    head -n 2 "$out/environment.txt" | paste -sd ';' | sed 's/;/; /'
    printf '%-15s %-66s %-33s %s\n' check result goal verdict
    printf '%.0s-' {1..123}
    echo
    for r in "${rows[@]}"; do
        IFS='|' read -r name what goal verdict <<<"$r"
        printf '%-15s %-66s %-33s %s\n' "$name" "$what" "$goal" "$verdict"
    done
} | tee "$out/summary.txt"

if [ $archive = 1 ]; then
    (cd "$out" && find . -mindepth 1 -maxdepth 1 ! -name summary.txt ! -name validate.tar.gz -printf '%P\n' \
        | tar -czf validate.tar.gz -T - && find . -mindepth 1 -maxdepth 1 ! -name summary.txt ! -name validate.tar.gz \
        -exec rm -rf {} +)
fi
exit $status
