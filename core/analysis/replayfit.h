#pragma once

#include "core/analysis/experimentresult.h"
#include "core/queuemodel/prediction.h"

#include <cstdint>
#include <vector>

namespace synctax {

// A group's captured step brought to its run's timed blocks from its baseline cell alone: the
// baseline's mean block ms/step, its median lag (0 where the cell has none) and its blocks' host time
// per step (where measured), its blocks' first two steps' host time (where kept: the fit's stepSpread),
// and the fit.
struct BaselineFit {
    ReplayFit fit;
    double baselineMs = 0;
    double baselineLagMs = 0;
};

// What the runner does after its rounds and `synctax-run simulate` again from a results file.
BaselineFit fitCapturedReplay(
    const CapturedReplay& replay, const CellResult* baseline, int64_t stepsPerBlock, double hostWorkUs);

// One group of a results file as its predictions are made again: its baseline cell (the first), the
// cells with a measured overhead and their styles, in the file's order, and its models' steps per block.
struct GroupCells {
    const CellResult* baseline = nullptr;
    std::vector<const CellResult*> cells;
    std::vector<StyleSpec> styles;
    int64_t stepsPerBlock = 0;
};
GroupCells groupCellsOf(const ExperimentResult& run, const GroupResult& group);

} // namespace synctax
