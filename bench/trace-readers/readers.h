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

ReadOutcome readWithRapidJson(const std::string& path);
ReadOutcome readWithNlohmann(const std::string& path);
ReadOutcome readWithSimdjson(const std::string& path);

} // namespace tracebench
