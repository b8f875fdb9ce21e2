#include "core/analysis/replayfit.h"

#include "core/analysis/statistics.h"
#include "core/config/stylecatalog.h"
#include "core/config/sweepgrid.h"

#include <algorithm>

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
