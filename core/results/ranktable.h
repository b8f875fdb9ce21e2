#pragma once

#include "core/analysis/experimentresult.h"

#include <string>

namespace synctax {

// A data-parallel run's cells rank by rank (result.distributed), model by model: per style, each
// rank's median step, its median host time blocked in the gradient all-reduces, the queue model's
// predicted tax (the barrier replay's, CellResult::rankPrediction) and the measured tax against the
// baseline, then the same model and style in one process. Rows fit 80 columns (a tax interval of
// up to 26 characters beside styles of up to 20). Empty for a run of one process.
std::string formatRankTable(const ExperimentResult& result);

} // namespace synctax
