#include "core/analysis/replayfit.h"

#include "core/analysis/statistics.h"

namespace synctax {

BaselineFit fitCapturedReplay(
    const CapturedReplay& replay, const CellResult* baseline, int64_t stepsPerBlock, double hostWorkUs)
{
    BaselineFit f;
    if (baseline && !baseline->blockStepMs.empty())
        f.baselineMs = mean(baseline->blockStepMs);
    if (baseline && baseline->queue)
        f.baselineLagMs = baseline->queue->medianLagMs;
    f.fit = fitReplayToBaseline(replay.step, replay.costs, stepsPerBlock, hostWorkUs, f.baselineMs, f.baselineLagMs,
        replay.drainMs, baseline ? baseline->blockDispatchMs : std::vector<double> {}, &replay.calibration);
    if (baseline)
        f.fit.stepSpread = withinBlockSpread(baseline->blockFirstStepsMs);
    return f;
}

} // namespace synctax
