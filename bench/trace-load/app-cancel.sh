#!/usr/bin/env bash
# Opens a ~1 GB Kineto trace in the app's real window (offscreen) twice: once cancelled at half
# its bytes, once loaded to the end; prints how the progress moved, the cancel's latency and the
# event loop's largest gap (bench/trace-load/app-cancel.cpp). A benchmark: no goal fails it.
# Usage: bench/trace-load/app-cancel.sh [BUILD_DIR]   (SIZE_MB, TRACE_DIR, CANCEL_AT as in README.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
driver=$build/bin/synctax-app-cancel
[ -x "$driver" ] || { echo "app-cancel.sh: no $driver (cmake --build $build --target synctax-app-cancel)" >&2; exit 2; }
dir=${TRACE_DIR:-/tmp}
# 1 GB of JSON, or 500 MB where the disk holding it has less than 3 GB free.
free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
size_mb=${SIZE_MB:-$([ "$free_kb" -ge $((3 * 1024 * 1024)) ] && echo 1000 || echo 500)}
base=$dir/kineto-load-${size_mb}mb
[ -f "$base.json" ] || python3 "$here/make-trace.py" --size-mb "$size_mb" --out "$base"
cat "$base.json" > /dev/null # from the page cache, as the other runs
export QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES='qt.qpa.*=false'
echo "## cancelled at ${CANCEL_AT:-0.5} of the bytes (load average $(cut -d' ' -f1 /proc/loadavg))"
"$driver" "$base.json" "${CANCEL_AT:-0.5}"
echo "## loaded to the end (load average $(cut -d' ' -f1 /proc/loadavg))"
"$driver" "$base.json" 0
