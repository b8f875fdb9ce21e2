#include "core/analysis/rankprediction.h"

#include "core/analysis/replayfit.h"
#include "core/config/stylecatalog.h"
#include "core/config/sweepgrid.h"
#include "core/queuemodel/barrierreplay.h"
#include "core/queuemodel/prediction.h"
#include "core/statistics/statistics.h"

#include <algorithm>

namespace synctax {

namespace {

const CellResult* findCell(const std::vector<CellResult>& cells, const GroupKey& key, const std::string& style)
{
    const auto it = std::find_if(cells.begin(), cells.end(),
        [&](const CellResult& c) { return groupKeyOf(c) == key && c.style == style && c.ok; });
    return it == cells.end() ? nullptr : &*it;
}

// A rank's measured baseline: its mean block ms/step and mean collective wait per step.
struct RankBaseline {
    double stepMs = 0;
    double waitMs = 0;
    double lagMs = 0;
    double ownMs() const { return std::max(0.0, stepMs - waitMs); }
};

// On the CPU a style's cost is its host time: its overhead in one process times that process's
// baseline step, charged at every step (a style reading every n steps costs the same on average).
std::optional<ReplayCosts> singleProcessCosts(
    const std::vector<CellResult>& single, const GroupKey& key, const std::vector<StyleSpec>& styles)
{
    const CellResult* none = findCell(single, key, baselineStyle());
    if (!none || none->blockStepMs.empty())
        return std::nullopt;
    ReplayCosts costs;
    costs.syncUs = 0; // no queue: a read waits for nothing
    costs.extraLaunchUs = 0; // a style's small ops ran on the host, inside its measured cost
    costs.source = "measured in one process";
    for (const StyleSpec& style : styles) {
        if (style.name == baselineStyle())
            continue;
        const CellResult* cell = findCell(single, key, style.name);
        if (!cell || !cell->overheadPct)
            return std::nullopt;
        const double us = std::max(0.0, cell->overheadPct->estimate) * 1e-2 * mean(none->blockStepMs) * 1e3;
        costs.measured[style.name] = { us, us };
    }
    return costs;
}

struct RankSteps {
    std::vector<StepSequence> steps; // per rank, fitted to its own baseline step
    ReplayCosts costs;
    std::string model;
};

std::optional<RankSteps> fitRankSteps(const std::vector<RankBaseline>& baselines, const GroupResult* singleGroup,
    const std::vector<CellResult>& single, const GroupKey& key, const std::vector<StyleSpec>& styles,
    std::int64_t stepsPerBlock)
{
    // Which step and costs stand for every rank comes from the single process alone; each rank's
    // step is then fitted to its own baseline.
    RankSteps fitted;
    fitted.model = "uniform";
    const double hostWorkUs = double(key.hostWorkUs);
    if (singleGroup && singleGroup->replay) {
        const CapturedReplay replay = recalibratedCapture(*singleGroup->replay);
        fitted.costs = replay.costs;
        fitted.model = "replay";
        for (const RankBaseline& b : baselines) {
            fitted.steps.push_back(fitReplayToBaseline(
                replay.step, fitted.costs, stepsPerBlock, hostWorkUs, b.ownMs(), b.lagMs, replay.drainMs)
                                       .step);
        }
    } else if (singleGroup && singleGroup->regime.available) {
        const RegimeMeasurement& m = singleGroup->regime;
        fitted.costs.syncUs = m.lUs;
        const StepSequence uniform = uniformSequence(m.dMs, m.gMs, m.k > 0 ? m.k : 1);
        for (const RankBaseline& b : baselines)
            fitted.steps.push_back(fitHostToBaseline(uniform, fitted.costs, stepsPerBlock, hostWorkUs, b.ownMs()));
    } else {
        const std::optional<ReplayCosts> costs = singleProcessCosts(single, key, styles);
        if (!costs)
            return std::nullopt;
        fitted.costs = *costs;
        for (const RankBaseline& b : baselines)
            fitted.steps.push_back(uniformSequence(b.ownMs() - hostWorkUs * 1e-3, 0, 0));
    }
    return fitted;
}

void predictGroup(ExperimentResult& result, const GroupKey& key, const std::vector<GroupResult>& singleGroups)
{
    DistributedResult& d = *result.distributed;
    const DistributedSpec& spec = *result.config.distributed;
    std::vector<RankBaseline> baselines;
    for (const RankOutcome& rank : d.ranks) {
        const CellResult* none = findCell(rank.cells, key, baselineStyle());
        if (!none || none->blockStepMs.empty() || !none->collectiveWaitMs)
            return; // a barrier needs every rank's step
        baselines.push_back(
            { mean(none->blockStepMs), none->collectiveWaitMs->mean, none->queue ? none->queue->medianLagMs : 0.0 });
    }
    std::vector<StyleSpec> styles;
    std::vector<std::string> names;
    std::int64_t stepsPerBlock = 0;
    for (const CellResult& c : d.ranks.front().cells) {
        if (groupKeyOf(c) == key && c.ok) {
            styles.push_back(result.config.styleSpecOf(c.style));
            names.push_back(c.style);
            stepsPerBlock = c.stepsPerBlock;
        }
    }
    const auto singleGroup = std::find_if(
        singleGroups.begin(), singleGroups.end(), [&](const GroupResult& g) { return groupKeyOf(g) == key; });
    const std::optional<RankSteps> fitted = fitRankSteps(baselines,
        singleGroup == singleGroups.end() ? nullptr : &*singleGroup, d.singleProcess, key, styles, stepsPerBlock);
    if (!fitted)
        return;

    ReplayOptions options;
    options.hostWorkUs = double(key.hostWorkUs);
    options.syncUs = fitted->costs.syncUs;
    BarrierOptions barrier;
    barrier.wait = spec.backend == CollectiveBackend::Nccl ? CollectiveWait::Stream : CollectiveWait::Host;
    barrier.styleOnEveryRank = spec.syncOn == SyncOn::All;
    // The collective's cost: what the replayed baseline lacks of the ranks' mean measured one.
    const auto uncharged
        = replayBarrierBlock(fitted->steps, { baselineStyle(), 0 }, stepsPerBlock, options, fitted->costs, barrier);
    double measuredMs = 0, replayedMs = 0;
    for (size_t r = 0; r < baselines.size(); ++r) {
        measuredMs += baselines[r].stepMs / double(baselines.size());
        replayedMs += uncharged[r].msPerStep / double(baselines.size());
    }
    barrier.collectiveUs = std::max(0.0, measuredMs - replayedMs) * 1e3;

    const auto predicted = predictRankStyles(fitted->steps, styles, stepsPerBlock, options, fitted->costs, barrier);
    for (size_t r = 0; r < d.ranks.size(); ++r) {
        const std::string regime = replayRegime(fitted->steps[r], double(key.hostWorkUs)).label;
        for (CellResult& c : d.ranks[r].cells) {
            const auto i = size_t(std::find(names.begin(), names.end(), c.style) - names.begin());
            if (groupKeyOf(c) != key || !c.ok || i == names.size())
                continue;
            const RankStylePrediction& p = predicted[r][i];
            c.rankPrediction = RankPrediction { { p.taxPct, regime, fitted->model }, p.stepMs, p.collectiveWaitMs,
                barrier.collectiveUs * 1e-3 };
        }
    }
}

} // namespace

void predictRankCells(ExperimentResult& result, const std::vector<GroupResult>& singleGroups)
{
    if (!result.distributed || !result.config.distributed || result.distributed->ranks.empty())
        return;
    if (int(result.distributed->ranks.size()) != result.config.distributed->ranks)
        return;
    std::vector<GroupKey> keys;
    for (const CellResult& c : result.distributed->ranks.front().cells) {
        if (std::find(keys.begin(), keys.end(), groupKeyOf(c)) == keys.end())
            keys.push_back(groupKeyOf(c));
    }
    for (const GroupKey& key : keys)
        predictGroup(result, key, singleGroups);
}

} // namespace synctax
