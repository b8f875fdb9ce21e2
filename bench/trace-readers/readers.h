#pragma once

#include "tally.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tracebench {

struct ReadOutcome {
    Tally tally;
    std::uint64_t textBytes = 0; // uncompressed JSON bytes read
    std::string error; // empty when the read succeeded
};

class ChunkSource;

// Each reads the whole of source (opened on path) and counts what Tally counts.
ReadOutcome readWithRapidJson(ChunkSource& source);
ReadOutcome readWithNlohmann(ChunkSource& source);
ReadOutcome readWithSimdjson(ChunkSource& source, const std::string& path);

} // namespace tracebench
