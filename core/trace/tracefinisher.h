#pragma once

#include "core/trace/kinetohandler.h"
#include "core/trace/kinetotrace.h"

#include <optional>
#include <string>

namespace synctax {

// After the SAX pass: shifts every event by baseTimeNanoseconds (known only at the end when the key
// comes after traceEvents), sorts by start (the longer first on a tie, so an enclosing event comes
// before what it contains), labels the lanes and writes the notes. Returns an error message only
// when a shifted time no longer fits in int64.
// Notes of the reader's that the analysis (traceanalysis.cpp) would otherwise say again in its own
// words; the counted ones end ": N".
inline constexpr const char* noGpuEventsNote = "no GPU events: the trace was recorded without CUDA activity";
inline constexpr const char* gpuWithoutLaunchNote
    = "GPU events (kernels, copies, memsets) without their launch in the trace";
inline constexpr const char* launchWithoutGpuNote = "launches without their GPU work in the trace";

std::optional<std::string> finishTrace(KinetoTrace& trace, const KinetoReadCounts& counts,
    const std::map<std::pair<std::int64_t, std::int64_t>, std::string>& threadNames);

} // namespace synctax
