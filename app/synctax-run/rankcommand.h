#pragma once

#include "runcommand.h"

#include "core/config/experimentconfig.h"

#include <filesystem>

namespace synctax {

// A data-parallel run (config.distributed): starts its ranks as processes of this program
// (`run DIR/rank-K/config.yaml --rank K --rendezvous DIR/rendezvous`), each writing its own outputs
// into DIR/rank-K/ (rank 0's messages and progress on this stderr, the others' in their log.txt);
// watches them; once they are done, runs the same models and styles in one more
// process (DIR/single/) for comparison, and writes the results of all into DIR. A rank that dies,
// or that is silent for distributed.timeout_s after another rank ended, ends the run with a message
// that names it; what the others wrote is kept. Exit codes as runCommand's.
int runRanks(const ExperimentConfig& config, const std::filesystem::path& outDir, const RunOptions& options);

} // namespace synctax
