#pragma once

#include "core/config/experimentconfig.h"
#include "core/queuemodel/simulator.h"

#include <cstdint>

namespace synctax {

// What syncing every n steps costs a loop in steady state, as the queue model predicts it.
struct SyncTaxEstimate {
    double taxPct = 0; // extra time per step against the baseline, in percent
    double msPerStepWith = 0; // with the sync
    double msPerStepWithout = 0; // the baseline ("none")
    double waitMsPerSync = 0; // how long the host sits in one sync (the round trip included)
};

// The style that syncs every n steps: `item` for n = 1, `item_every_n` above, the baseline for n <= 0.
StyleSpec syncEveryNStyle(int64_t n);

// Simulates a short and a long block of the baseline and of the sync style (simulateStyles) and
// takes the difference, so the pipeline's fill at a block's start and the closing synchronize
// cancel out: what is left is the tax of a loop that runs for a long time. Deterministic.
// `minSteps` is the short block's length (rounded up to whole sync periods).
SyncTaxEstimate estimateSyncTax(const QueueModel& model, int64_t n, int64_t minSteps = 20);

} // namespace synctax
