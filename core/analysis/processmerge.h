#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"

#include <vector>

namespace synctax {

// A run spread over `processes` fresh processes (docs/method.md): on a VM the loop's speed, and
// with it a sync's tax, differs from one process to the next by more than one process's interval
// shows, so the rounds are spread over several and the interval is taken across them.

// What process `index` (0-based) of `count` runs: the same config with its share of every time
// budget and of the rounds, at least 2 of them, and its own seed (seed + index).
ExperimentConfig configForProcess(const ExperimentConfig& config, int index, int count);

// The processes' results as one run of `config`: blocks renumbered into one sequence of rounds,
// with the rounds each process measured in every group's processRounds; step-time summaries
// weighted by steps (the mean exactly, the quantiles approximately); regimes the median of the
// processes'; every overhead, verdict, noise floor and drift analysed again over all blocks, the
// intervals across processes. Cells and groups follow the first result's order.
ExperimentResult mergeProcessResults(const ExperimentConfig& config, const std::vector<ExperimentResult>& parts);

// Whether any model and mode of `result` was spread over processes (its intervals are then
// across processes, not a bootstrap over rounds).
bool spreadOverProcesses(const ExperimentResult& result);

} // namespace synctax
