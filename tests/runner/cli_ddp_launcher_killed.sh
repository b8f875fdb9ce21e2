#!/usr/bin/env bash
# SIGKILL to the launcher of a data-parallel run (nothing passes a stop on): its ranks must not run
# on to the end of their 300 s budget. Each ends at the end of a round, as on SIGTERM, and keeps
# its own results, marked stopped.
set -u
runner=$1 data=$2 work=$3
source "$(dirname "$0")/ddp_long_started.sh"
kill -KILL $pid
wait $pid 2>/dev/null
# The ranks' command lines name the rendezvous file in the output folder.
for _ in $(seq 300); do
    pgrep -f -- "--rendezvous $work" >/dev/null || break
    sleep 0.1
done
if pgrep -f -- "--rendezvous $work" >/dev/null; then
    pkill -KILL -f -- "--rendezvous $work"
    echo "the ranks ran on 30 s after their launcher was killed"
    exit 1
fi
for k in 0 1; do
    grep -q '"stopped": true' "$work/rank-$k/results.json" 2>/dev/null \
        || { echo "rank $k kept no results marked stopped"; exit 1; }
done
echo "the ranks of a killed launcher stopped and kept their results"
