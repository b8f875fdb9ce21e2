#pragma once

#include "runcommand.h"

#include "core/config/experimentconfig.h"

#include <filesystem>

namespace synctax {

// The run spread over config.processes fresh processes, one after another (docs/method.md): each
// is this program again (`run DIR/process-K/config.yaml --out DIR/process-K`) with its share of the
// blocks and writes its own outputs there, its table into table.txt; the merged results.json and
// summary.csv go to DIR. A stop (SIGINT, SIGTERM) is passed on to the process running. Exit codes
// as runCommand's.
int runInProcesses(const ExperimentConfig& config, const std::filesystem::path& outDir, const RunOptions& options);

} // namespace synctax
