#pragma once

#include "core/analysis/experimentresult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// One point of a tax curve: a group's host work and what one style cost there.
struct SweepPoint {
    int64_t hostWorkUs = 0;
    bool ok = true; // false: the cell failed
    std::optional<Interval> measuredPct; // the paired overhead and its 95% interval; none: not enough rounds
    std::optional<double> predictedPct; // the queue model's, where the group's regime was measured (CUDA)
};

// One style's tax against host work, for one model, mode and batch of a run that swept host work:
// a point per host work, in the order the run measured them.
struct SweepCurve {
    std::string model;
    std::string mode;
    int64_t batch = 0;
    std::string style;
    std::vector<SweepPoint> points;
};

// The curves of the models whose sweep lists host works: per model, batch and mode, one per logging
// style but the baseline and the controls, in the order the run has their cells. None for a run
// without a host-work sweep.
std::vector<SweepCurve> sweepCurves(const ExperimentResult& result);

} // namespace synctax
