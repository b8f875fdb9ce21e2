#pragma once

#include "core/analysis/experimentresult.h"
#include "core/queuemodel/prediction.h"

#include <cstddef>
#include <cstdint>
#include <string>
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
    CapturedReplay capture; // the capture the fit started from, as the runner calibrates it now
};

// A capture's calibration in one line (ReplayCalibration::how): its recorded host stretched evenly
// to the unprofiled step from an idle GPU, or a share of the profiler's cost taken out at each of its
// `events` recorded host events first, toward its drain (fitCalibration).
std::string captureCalibrationText(const ReplayCalibration& c, std::size_t events, double dispatchMs, double drainMs);

// The capture as the runner calibrates it now (fitCalibration): a step that files written before
// calibrated by a profiler cost per recorded host event alone (its host events kept) gets its
// recorded host back (uncalibratedHost) and is fitted again to the same unprofiled step from an idle
// GPU and drain, its GPU ops as they were; its `how` says what it replaced. Any other comes back as
// it is.
CapturedReplay recalibratedCapture(const CapturedReplay& replay);

// What the runner does after its rounds and `synctax-run simulate` again from a results file, on the
// capture recalibrated.
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
