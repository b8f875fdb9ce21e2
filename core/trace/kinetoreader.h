#pragma once

#include "core/trace/kinetotrace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace synctax {

struct TraceReadProgress {
    std::uint64_t fileBytesRead = 0; // bytes of the file itself (compressed for .json.gz)
    std::uint64_t fileBytes = 0; // the file's size
    std::uint64_t eventsRead = 0;
};

struct TraceReadOptions {
    std::function<void(const TraceReadProgress&)> progress; // called about every MiB read
    const std::atomic<bool>* cancel = nullptr; // polled about every 64 KiB; true stops the read
};

// Where a trace stopped being readable and what was expected there.
struct TraceReadError {
    std::string file;
    std::uint64_t byteOffset = 0; // in the JSON text (the uncompressed stream of a .json.gz)
    std::int64_t eventIndex = -1; // index in traceEvents; -1 outside it
    std::string message; // "expected a number for \"ts\", found a string"
    bool positioned = true; // false when the error is about the file itself (missing, a directory)

    std::string format() const; // "FILE: byte 1234, event 17: expected ..."
};

struct TraceReadResult {
    std::optional<KinetoTrace> trace; // set only when there is no error and no cancel
    std::optional<TraceReadError> error;
    bool cancelled = false;
};

// Streams a Kineto trace (.json, or gzip: recognised by its magic bytes, not by the name) without
// ever holding the whole document: timestamps are read as decimal text into int64 ns, in every
// format Kineto has written (integer µs, fractional µs with ns digits, relative to
// baseTimeNanoseconds), with the top-level keys in any order. Never throws on bad input.
//
// Errors (no trace; byte offset, event index, what was expected): a missing file, a directory, a
// 0-byte or blank file, text that is not JSON, truncated JSON, a truncated or corrupt gzip stream,
// a top level that is not an object, no "traceEvents" or one that is not an array, an element of
// it that is not an object; in a kept event (ph "X" of a category SyncTax reads) a missing ts or
// dur; in any event a ts or dur that is not a number, is NaN or Infinity, does not fit in int64 ns
// (also ts + dur, and baseTimeNanoseconds + ts + dur), or a negative dur; a baseTimeNanoseconds
// that is not an integer.
// Notes (the trace reads; KinetoTrace::notes says it): an empty traceEvents, no GPU events, GPU
// work without its launch or launches without GPU work (the profiler's window cuts pairs; the
// analysis handles them), GPU work without args.stream (skipped) or args.device (placed by pid),
// host events without numeric pid and tid (skipped), NaN or Infinity elsewhere (not read), GPU work
// on several devices, host events from several processes, a repeated distributedInfo (the last is
// kept) or traceEvents (all are read), top-level metadata of the wrong type (ignored), the 2021
// category names. Timestamp digits below 1 ns are cut toward zero.
TraceReadResult readKinetoTrace(const std::string& path, const TraceReadOptions& options = {});

// The same reader over JSON text in memory (tests, the fuzzer).
TraceReadResult readKinetoTraceText(const std::string& json, const std::string& sourceName);

} // namespace synctax
