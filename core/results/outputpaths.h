#pragma once

#include <string>
#include <vector>

namespace synctax {

// Checks made before a run starts, so that an output that cannot be written stops it at once
// rather than after hours of measuring.

// Why `path` cannot be written the way SyncTax writes a file (a temporary `path.tmp` beside it,
// renamed over it, or the file itself streamed); empty when it can. Creates nothing that stays.
std::string outputPathProblem(const std::string& path);

// What an earlier run left in `dir` that a new one would overwrite: the names of its files
// (results.json, summary.csv, steps.csv, journal.jsonl, trace.json) and process-K folders there.
std::vector<std::string> earlierRunFiles(const std::string& dir);

} // namespace synctax
