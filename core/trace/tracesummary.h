#pragma once

#include "core/trace/tracereport.h"
#include "core/trace/tracewhatif.h"

// The full header, as resultsjson.h explains.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

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

// The summaries' file names of several traces read at once, one per path in order. Where two traces
// share a stem (A/x.json.gz and B/x.json.gz), each takes as many of its nearest folders' names as
// tell them apart ("trace-summary-A-x.json"), and `renamed` says so in a sentence. `problem` is
// set, and no name is to be written, where that cannot part them: one file given twice, or a
// folder-named summary meeting another trace's own.
struct TraceSummaryNames {
    std::vector<std::string> names;
    std::string renamed;
    std::string problem;
};
TraceSummaryNames traceSummaryFileNames(const std::vector<std::string>& tracePaths);

void writeTraceSummary(
    const std::string& path, const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf);

} // namespace synctax
