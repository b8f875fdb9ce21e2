#!/usr/bin/env python3
"""Makes a big Kineto trace by repeating the events of a real one.

Each repetition shifts ts by the source's span (whole µs, so the 3 decimals of ns stay exact) and
offsets the ids that link events (correlation, External id, Python id/parent id, flow id) so they
stay unique. Metadata events (ph "M") are written once. The header keys and their order are the
source's. The output is written as it is made, one repetition at a time; nothing near the target
size is held in memory.

  make-trace.py --size-mb 500 --out /tmp/kineto-500mb [--gzip] [--source TRACE.json(.gz)]
writes /tmp/kineto-500mb.json (and /tmp/kineto-500mb.json.gz, gzip level 6).
"""
import argparse
import decimal
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(
    HERE, "..", "..", "tests", "data", "traces", "torch-2.11-h200", "resnet50-item.pt.trace.json.gz"
)
ARG_IDS = ("correlation", "External id", "Python id", "Python parent id")
FLOW_PHASES = ("s", "t", "f")
RAW = "\x01"  # marks a number kept as its source text
HOLE = "\x02"  # marks a field filled in per repetition
RAW_JSON = "\\u0001"  # how json.dumps writes those marks
HOLE_JSON = "\\u0002"


def load(path):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    opener = gzip.open if gz else open
    with opener(path, "rt", encoding="utf-8") as f:
        # Decimal keeps the ns digits that a double would round away
        return json.load(f, parse_float=decimal.Decimal)


def dumps(value):
    """json.dumps that writes Decimals as their own text and leaves the holes as markers."""
    text = json.dumps(value, ensure_ascii=False, default=lambda d: RAW + str(d) + RAW)
    return text.replace('"' + RAW_JSON, "").replace(RAW_JSON + '"', "")


def to_ns(v):
    return int(decimal.Decimal(v) * 1000)


def template(event):
    """Splits the event's JSON into literal parts and the names of the holes between them."""
    e = dict(event)
    holes = []
    if "ts" in e:
        e["ts"] = HOLE + "ts" + HOLE
        holes.append("ts")
    if e.get("ph") in FLOW_PHASES and "id" in e:
        e["id"] = HOLE + "flow" + HOLE
        holes.append("flow")
    if isinstance(e.get("args"), dict):
        e["args"] = dict(e["args"])
        for k in ARG_IDS:
            if isinstance(e["args"].get(k), int):
                e["args"][k] = HOLE + k + HOLE
                holes.append(k)
    text = dumps(e)
    parts, names = [], []
    marker_of = {name: '"' + HOLE_JSON + name + HOLE_JSON + '"' for name in holes}
    for name in sorted(holes, key=lambda n: text.index(marker_of[n])):
        marker = marker_of[name]
        before, text = text.split(marker, 1)
        parts.append(before)
        names.append(name)
    parts.append(text)
    return parts, names


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default=DEFAULT_SOURCE)
    ap.add_argument("--size-mb", type=float, default=500.0, help="target uncompressed size, 10^6 bytes")
    ap.add_argument("--out", required=True, help="output path without .json")
    ap.add_argument("--gzip", action="store_true", help="also write OUT.json.gz (level 6)")
    args = ap.parse_args()

    trace = load(args.source)
    events = trace["traceEvents"]
    timed = [e for e in events if "ts" in e]
    start = min(to_ns(e["ts"]) for e in timed)
    end = max(to_ns(e["ts"]) + to_ns(e.get("dur", 0)) for e in timed)
    span_us = (end - start) // 1000 + 1  # whole µs: integer ts stay integers
    offsets = {k: 1 + max([e["args"][k] for e in events if isinstance(e.get("args"), dict)
                           and isinstance(e["args"].get(k), int)] or [0]) for k in ARG_IDS}
    offsets["flow"] = 1 + max([e["id"] for e in events if e.get("ph") in FLOW_PHASES
                               and isinstance(e.get("id"), int)] or [0])

    once = [dumps(e) for e in events if e.get("ph") == "M"]
    repeated = []
    for e in events:
        if e.get("ph") == "M":
            continue
        parts, names = template(e)
        ts = e.get("ts")
        base = {"ts": to_ns(ts) if isinstance(ts, decimal.Decimal) else ts}
        for k in names:
            if k == "flow":
                base[k] = e["id"]
            elif k != "ts":
                base[k] = e["args"][k]
        repeated.append((parts, names, base, isinstance(ts, decimal.Decimal)))

    target = int(args.size_mb * 1e6)
    json_path = args.out + ".json"
    out = open(json_path, "wb")
    gz = gzip.GzipFile(args.out + ".json.gz", "wb", compresslevel=6, mtime=0) if args.gzip else None
    written = 0

    def write(text):
        nonlocal written
        data = text.encode("utf-8")
        out.write(data)
        if gz:
            gz.write(data)
        written += len(data)

    header = [k for k in trace if k != "traceEvents"]
    before = header[: list(trace).index("traceEvents")]
    after = header[len(before):]
    write("{\n" + "".join(json.dumps(k) + ": " + dumps(trace[k]) + ",\n" for k in before))
    write('"traceEvents": [\n' + ",\n".join(once))
    reps = 0
    count = len(once)
    while written < target:
        chunk = []
        for parts, names, base, fractional in repeated:
            piece = [parts[0]]
            for i, k in enumerate(names):
                if k == "ts":
                    if fractional:
                        v = base["ts"] + reps * span_us * 1000
                        piece.append("%d.%03d" % (v // 1000, v % 1000))
                    else:
                        piece.append(str(base["ts"] + reps * span_us))
                else:
                    piece.append(str(base[k] + reps * offsets[k]))
                piece.append(parts[i + 1])
            chunk.append("".join(piece))
        write((",\n" if count else "") + ",\n".join(chunk))
        count += len(chunk)
        reps += 1
    write("\n]" + "".join(",\n" + json.dumps(k) + ": " + dumps(trace[k]) for k in after) + "\n}\n")
    out.close()
    if gz:
        gz.close()
    print("%s: %d bytes, %d events (%d repetitions of %d, span %d us)%s"
          % (json_path, written, count, reps, len(repeated), span_us,
             ", and %s.json.gz: %d bytes" % (args.out, os.path.getsize(args.out + ".json.gz")) if gz else ""))


if __name__ == "__main__":
    sys.exit(main())
