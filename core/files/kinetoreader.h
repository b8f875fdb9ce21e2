#pragma once

#include "core/analysis/kinetotrace.h"

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
TraceReadResult readKinetoTrace(const std::string& path, const TraceReadOptions& options = {});

// The same reader over JSON text in memory (tests, the fuzzer).
TraceReadResult readKinetoTraceText(const std::string& json, const std::string& sourceName);

} // namespace synctax
