#pragma once

#include "core/analysis/experimentresult.h"

#include <string>

namespace synctax {

// A data-parallel run's cells rank by rank (result.distributed): per model and style, each rank's
// median step, its median host time blocked in the gradient all-reduces and its tax against the
// baseline, then the same model and style in one process. Empty for a run of one process.
std::string formatRankTable(const ExperimentResult& result);

} // namespace synctax
