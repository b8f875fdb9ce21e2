#pragma once

#include "core/queuemodel/stylereplay.h"
#include "core/queuemodel/taxestimate.h"

#include <cstdint>

namespace synctax {

// What syncing every n steps (syncEveryNStyle) costs a recorded step replayed in a long loop: the
// steady state of predictStyles for the baseline and that style, with H, the sync price of the
// recorded syncs and Q from `options`; `costs` prices the style's read (L is costs.syncUs). The
// replay's counterpart of estimateSyncTax, for the Teach window with a loaded launch sequence.
SyncTaxEstimate estimateSequenceSyncTax(
    const StepSequence& seq, std::int64_t n, const ReplayOptions& options, const ReplayCosts& costs);

// The sequence with its GPU ops scaled so that they add up to gMs per step, the host as recorded
// (calibrated() with a gpuScale): how a chart that sweeps G moves a recorded step along its axis.
StepSequence withGpuTimeMs(const StepSequence& seq, double gMs);

} // namespace synctax
