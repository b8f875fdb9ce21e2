#pragma once

#include "core/analysis/experimentresult.h"

#include <vector>

namespace synctax {

// Fills rankPrediction in every rank cell of result.distributed: the barrier replay
// (core/queuemodel/barrierreplay.h) over all ranks, calibrated from what the run measured, as the
// single-process path is (core/analysis/replayfit.h). Per group: each rank's own step is its baseline
// block ms/step less its collective wait; the collective's cost is what brings the replayed baseline
// to the ranks' mean measured baseline step. The steps and the styles' costs come from the
// single-process comparison (singleGroups, result.distributed->singleProcess): its captured step and
// measured costs where it has them ("replay"); else its D, G, K and L ("uniform"); on the CPU, where
// neither is measured, a step of host work alone and each style's cost from its measured overhead in
// one process ("uniform"). A group where some rank has no measured baseline, or a CPU style the
// single process did not measure, gets no prediction.
void predictRankCells(ExperimentResult& result, const std::vector<GroupResult>& singleGroups);

} // namespace synctax
