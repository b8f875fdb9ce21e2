#!/bin/sh
# run.sh COMMAND [ARGS...]: times `COMMAND ARGS... FILE` on a ~500 MB Kineto trace, as .json and as
# .json.gz (made once by make-trace.py into $TRACE_DIR, default /tmp; never in the repository),
# in $ROUNDS rounds (default 3) alternating the two files, and prints MB/s of uncompressed JSON and
# peak RSS as a % of the JSON's size beside the goals.
#   bench/trace-load/run.sh build/bin/synctax-run trace
set -eu
if [ $# -eq 0 ]; then
    sed -n '2,6p' "$0"
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
dir=${TRACE_DIR:-/tmp}
size_mb=${SIZE_MB:-500}
base="$dir/kineto-load-${size_mb}mb"
if [ ! -f "$base.json" ] || [ ! -f "$base.json.gz" ]; then
    python3 "$here/make-trace.py" --size-mb "$size_mb" --out "$base" --gzip
fi
bytes=$(stat -c %s "$base.json")
cat "$base.json" "$base.json.gz" >/dev/null # the timed runs read from the page cache
echo "command: $* FILE   machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
exec python3 "$here/timecmd.py" --repeat "${ROUNDS:-3}" --bytes "$bytes" \
    --goal-mbps 100 --goal-rss-percent 25 --file "$base.json" --file "$base.json.gz" -- "$@"
