#!/usr/bin/env python3
# Independent counts over Kineto traces for tests/core/trace/test_kinetoreader.cpp: python3 json
# (numbers as Decimal, so no float rounding) and gzip, no SyncTax code. Usage: expected_counts.py FILE...
import gzip, json, sys
from decimal import Decimal
LAUNCH_EXACT = {"cudaMemcpyAsync", "cudaMemsetAsync", "cudaGraphLaunch"}
SYNCS = {"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize"}
KEPT = {"cpu_op", "user_annotation", "python_function", "cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy", "gpu_memset", "cuda_sync"}
for path in sys.argv[1:]:
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    d = json.loads(raw, parse_float=Decimal, parse_int=Decimal)
    base = int(d.get("baseTimeNanoseconds", 0))
    k = l = s = st = 0
    lanes = set()
    first = None
    for e in d["traceEvents"]:
        if e.get("ph") != "X" or e.get("cat") not in KEPT:
            continue
        cat, name, a = e["cat"], e["name"], e.get("args", {})
        if cat == "kernel": k += 1
        if cat in ("cuda_runtime", "cuda_driver"):
            if name.startswith("cudaLaunchKernel") or name.startswith("cuLaunchKernel") or name in LAUNCH_EXACT: l += 1
            if name in SYNCS: s += 1
        if cat in ("user_annotation", "cpu_op") and name.startswith("ProfilerStep#"): st += 1
        if cat in ("kernel", "gpu_memcpy", "gpu_memset", "cuda_sync"):
            lanes.add((int(a["device"]), int(a["stream"])))
        ns = base + int(e["ts"] * 1000)
        first = ns if first is None else min(first, ns)
    di = d.get("distributedInfo", {})
    dev = d.get("deviceProperties", [{}])
    print(path, f"kernels={k} launches={l} syncs={s} steps={st} gpuLanes={len(lanes)} rank={di.get('rank')} world={di.get('world_size')} device={dev[0].get('name') if dev else None} first={first} inFile={len(d['traceEvents'])}")
