#pragma once

#include "core/analysis/tracereport.h"
#include "core/queuemodel/tracewhatif.h"

// The full header, as resultsjson.h explains.
#include <nlohmann/json.hpp>

#include <string>

namespace synctax {

// trace-summary.json, documented in docs/trace-summary.md.
inline constexpr const char* traceSummarySchema = "synctax.trace/1";

// The report's own part: everything but `whatif`.
nlohmann::json toJson(const TraceReport& report);
// The `whatif` object: whatIf's rows and how `loop` was calibrated; no rows and `absent_reason` when
// the loop cannot be replayed.
nlohmann::json toJson(const ImportedLoop& loop, const WhatIf& whatIf);
// The whole summary: the report and its what-if.
nlohmann::json toJson(const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf);

// Writes through the atomic file writer; throws std::runtime_error naming the file on failure.
// The summary's file name when several traces are read: trace-summary-<stem>.json, the stem being
// the file name without .gz, .json and .pt.trace ("rank0.123.pt.trace.json.gz" ->
// "trace-summary-rank0.123.json"). A file name is unique in a folder where a rank number may not be.
std::string traceSummaryFileName(const std::string& tracePath);

void writeTraceSummary(
    const std::string& path, const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf);

} // namespace synctax
