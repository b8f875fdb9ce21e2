#pragma once

#include "core/analysis/tracereport.h"

// The full header, as resultsjson.h explains.
#include <nlohmann/json.hpp>

#include <string>

namespace synctax {

// trace-summary.json, documented in docs/trace-summary.md.
inline constexpr const char* traceSummarySchema = "synctax.trace/1";

nlohmann::json toJson(const TraceReport& report);

// Writes through the atomic file writer; throws std::runtime_error naming the file on failure.
void writeTraceSummary(const std::string& path, const TraceReport& report);

} // namespace synctax
