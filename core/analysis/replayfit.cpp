#include "core/analysis/replayfit.h"

#include "core/config/stylecatalog.h"
#include "core/config/sweepgrid.h"
#include "core/statistics/statistics.h"
#include "core/text/format.h"

#include <algorithm>

namespace synctax {

std::string captureCalibrationText(const ReplayCalibration& c, std::size_t events, double dispatchMs, double drainMs)
{
    const std::string gpu = "; GPU ops and their gaps to G";
    const std::string idle = "to the unprofiled step from an idle GPU (" + formatNumber("%.2f", dispatchMs) + " ms";
    if (c.perEventUs <= 0)
        return "host x " + formatNumber("%.2f", c.hostScale) + ", evenly, " + idle + ")" + gpu;
    return "the profiler's " + formatNumber("%.2f", c.perEventUs) + " us per recorded host event ("
        + std::to_string(events) + " per step) taken out, then host x " + formatNumber("%.2f", c.hostScale) + ", "
        + idle + ", drained at " + formatNumber("%.2f", drainMs) + " ms)" + gpu;
}

CapturedReplay recalibratedCapture(const CapturedReplay& replay)
{
    const ReplayCalibration& was = replay.calibration;
    if (was.evenFirst || was.perEventUs <= 0 || replay.step.hostEventUs.empty() || replay.dispatchMs <= 0)
        return replay;
    const StepSequence recorded = uncalibratedHost(replay.step, was);
    // The GPU ops already carry their gap and scale: fitted to their own total, nothing moves them.
    const ReplayCalibration now = fitCalibration(recorded, replay.dispatchMs, gpuTimeUs(recorded) * 1e-3,
        ReplayOptions {}.queueCapacity, drainBeforeSyncMs(replay.drainMs, replay.costs.syncUs));
    CapturedReplay out = replay;
    ReplayCalibration host;
    host.perEventUs = now.perEventUs;
    host.hostScale = now.hostScale;
    out.step = calibrated(recorded, host);
    out.step.idleStartUs = replay.step.idleStartUs;
    out.calibration.perEventUs = now.perEventUs;
    out.calibration.perEventOffLoopUs.reset();
    out.calibration.splitDrainShortUs = 0;
    out.calibration.hostScale = now.hostScale;
    out.calibration.evenFirst = true;
    out.calibration.how = captureCalibrationText(now, recorded.hostEventUs.size(), replay.dispatchMs, replay.drainMs)
        + ", in place of the recorded profiler cost of " + formatNumber("%.2f", was.perEventUs) + " us per host event";
    return out;
}

BaselineFit fitCapturedReplay(
    const CapturedReplay& given, const CellResult* baseline, int64_t stepsPerBlock, double hostWorkUs)
{
    BaselineFit f;
    f.capture = recalibratedCapture(given);
    const CapturedReplay& replay = f.capture;
    if (baseline && !baseline->blockStepMs.empty())
        f.baselineMs = mean(baseline->blockStepMs);
    if (baseline && baseline->queue)
        f.baselineLagMs = baseline->queue->medianLagMs;
    f.fit = fitReplayToBaseline(replay.step, replay.costs, stepsPerBlock, hostWorkUs, f.baselineMs, f.baselineLagMs,
        replay.drainMs, baseline ? baseline->blockDispatchMs : std::vector<double> {});
    if (baseline)
        f.fit.stepSpread = withinBlockSpread(baseline->blockFirstStepsMs);
    return f;
}

GroupCells groupCellsOf(const ExperimentResult& run, const GroupResult& group)
{
    GroupCells g;
    for (const CellResult& c : run.cells) {
        if (!sameGroup(c, group))
            continue;
        if (c.style == baselineStyle() && !g.baseline)
            g.baseline = &c;
        if (c.overheadPct) {
            g.cells.push_back(&c);
            g.styles.push_back(run.config.styleSpecOf(c.style));
        }
    }
    const auto model = std::find_if(
        run.config.models.begin(), run.config.models.end(), [&](const ModelSpec& m) { return m.name == group.model; });
    g.stepsPerBlock = model != run.config.models.end() ? run.config.stepsPerBlockFor(*model) : run.config.stepsPerBlock;
    return g;
}

} // namespace synctax
