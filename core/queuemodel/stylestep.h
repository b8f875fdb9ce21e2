#pragma once

#include "core/config/experimentconfig.h"
#include "core/config/stylecatalog.h"
#include "core/queuemodel/replaystate.h"
#include "core/queuemodel/stylereplay.h"

#include <cstddef>
#include <cstdint>

namespace synctax {

// What a style does after each step of a block, resolved once from the catalog and the costs:
// shared by the replay of one process (stylereplay.h) and of several ranks (barrierreplay.h).
struct StyleWork {
    const StyleInfo* info = nullptr; // null for a style outside the catalog: it does nothing
    std::int64_t n = 0;
    StyleHostCost cost;
    int extraLaunches = 0;
    double extraLaunchUs = 0;
    double afterSyncUs = 0; // the host's slowdown over the step after a read (ReplayCosts::afterSyncUs)
};
StyleWork styleWork(const StyleSpec& style, const ReplayCosts& costs);

// The style's work after step `step` of a block of `steps`: its extra launches, then at a read a
// wait for the GPU and readUs (and afterSyncUs, which the next step's dispatch pays, where there is
// a next step), at the other steps stepUs before its launches.
void replayStyleWork(
    ReplayState& s, const StyleWork& work, std::int64_t step, std::int64_t steps, std::size_t capacity);

// A long loop's steady state from a block of 2N steps minus one of N, so that the queue's fill and
// the closing synchronize cancel out: N is at least 20 and whole periods of the style's cadence.
std::int64_t steadySteps(const StyleSpec& style);
double steadyPerStep(std::int64_t n, double shortPerStep, double longPerStep); // from the two blocks' per-step values

} // namespace synctax
