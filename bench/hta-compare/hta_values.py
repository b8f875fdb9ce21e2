#!/usr/bin/env python3
"""Print Holistic Trace Analysis's own numbers for Kineto traces, to compare with SyncTax's.

usage: hta_values.py HTA_SOURCE_DIR TRACE...

HTA_SOURCE_DIR holds HTA's `hta` package (github.com/facebookresearch/HolisticTraceAnalysis);
it needs pandas, numpy, plotly, networkx and pydot (Debian: python3-pandas python3-plotly
python3-networkx python3-pydot). Each trace is copied alone into a temporary folder, since HTA
opens a folder of ranks. Prints one JSON object per trace: per stream, the queue length summary
(HTA's get_queue_length_summary: count, mean, max of the time series) and the idle time breakdown
(get_idle_time_breakdown: host wait, kernel wait, other, in µs), and for the rank the launch delays
(get_cuda_kernel_launch_stats: count, mean and max of launch_delay, µs).
"""
import json
import os
import shutil
import sys
import tempfile


def main():
    sys.path.insert(0, sys.argv[1])
    import logging
    logging.disable(logging.WARNING)
    from hta.trace_analysis import TraceAnalysis

    for trace in sys.argv[2:]:
        folder = tempfile.mkdtemp()
        name = os.path.basename(trace)
        if not name.endswith(".gz"):
            name += "" if name.endswith(".json") else ".json"
        shutil.copy(trace, os.path.join(folder, name))
        analyzer = TraceAnalysis(trace_dir=folder)
        rank = next(iter(analyzer.t.traces))
        out = {"trace": trace, "rank": int(rank), "streams": {}}
        summary = analyzer.get_queue_length_summary(ranks=[rank])
        if summary is not None:
            for (r, stream), row in summary.iterrows():
                q = row["queue_length"]
                out["streams"][str(int(stream))] = {"queue_count": int(q["count"]), "queue_mean": float(q["mean"]),
                                                    "queue_max": int(q["max"])}
        idle, _ = analyzer.get_idle_time_breakdown(ranks=[rank], visualize=False, show_idle_interval_stats=True)
        for _, row in idle.iterrows():
            entry = out["streams"].setdefault(str(int(row["stream"])), {})
            entry["idle_" + str(row["idle_category"]).replace(" ", "_")] = float(row["idle_time"])
        stats = analyzer.get_cuda_kernel_launch_stats(ranks=[rank], visualize=False)
        delay = stats[rank]["launch_delay"] if rank in stats else None
        if delay is not None and len(delay) > 0:
            out["launch_delay"] = {"count": int(delay.count()), "mean": float(delay.mean()), "max": float(delay.max())}
        print(json.dumps(out), flush=True)
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
