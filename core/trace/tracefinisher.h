#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/kinetohandler.h"

#include <optional>
#include <string>

namespace synctax {

// After the SAX pass: shifts every event by baseTimeNanoseconds (known only at the end when the key
// comes after traceEvents), sorts by start (the longer first on a tie, so an enclosing event comes
// before what it contains), labels the lanes and writes the notes. Returns an error message only
// when a shifted time no longer fits in int64.
std::optional<std::string> finishTrace(KinetoTrace& trace, const KinetoReadCounts& counts,
    const std::map<std::pair<std::int64_t, std::int64_t>, std::string>& threadNames);

} // namespace synctax
