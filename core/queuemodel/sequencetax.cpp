#include "core/queuemodel/sequencetax.h"

#include "core/config/stylecatalog.h"

#include <algorithm>

namespace synctax {

SyncTaxEstimate estimateSequenceSyncTax(
    const StepSequence& seq, std::int64_t n, const ReplayOptions& options, const ReplayCosts& costs)
{
    const StyleSpec style = syncEveryNStyle(n);
    const std::vector<StyleReplayPrediction> predicted
        = predictStyles(seq, { { baselineStyle(), 0 }, style }, 0, options, costs);
    const StyleReplayPrediction& p = predicted.back();
    SyncTaxEstimate estimate;
    estimate.msPerStepWithout = predicted.front().stepMs;
    estimate.msPerStepWith = p.stepMs;
    estimate.taxPct = p.taxPct;
    // One sync every n steps: its wait for the GPU, then the read's own cost (L for an .item()).
    if (n > 0)
        estimate.waitMsPerSync = p.syncWaitMs * double(n) + styleHostCost(style, costs).readUs * 1e-3;
    return estimate;
}

StepSequence withGpuTimeMs(const StepSequence& seq, double gMs)
{
    const double recorded = gpuTimeUs(seq);
    if (recorded <= 0)
        return seq;
    ReplayCalibration scale;
    scale.gpuScale = std::max(0.0, gMs * 1e3) / recorded;
    return calibrated(seq, scale);
}

} // namespace synctax
