#include "core/engine/run/grouprun.h"

#include "core/analysis/groupanalysis.h"
#include "core/analysis/replayfit.h"
#include "core/config/stylecatalog.h"
#include "core/engine/gpu/hostclock.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/training/stepexecutor.h"
#include "core/queuemodel/prediction.h"
#include "core/statistics/statistics.h"
#include "core/text/format.h"

#include <algorithm>
#include <numeric>

namespace synctax {

namespace {

StepStats statsOf(const std::vector<double>& ms)
{
    return { median(ms), quantile(ms, 0.10), quantile(ms, 0.90),
        std::accumulate(ms.begin(), ms.end(), 0.0) / double(ms.size()) };
}

void summarise(CellRun& cell)
{
    CellResult& r = *cell.result;
    if (cell.stepMs.empty())
        return;
    r.stepMs = statsOf(cell.stepMs);
    if (!cell.waitMs.empty())
        r.collectiveWaitMs = statsOf(cell.waitMs);
    if (!cell.queueSteps.empty()) {
        r.queue = QueueSummary { median(cell.lagMs), median(cell.queueSteps),
            int(*std::max_element(cell.queueSteps.begin(), cell.queueSteps.end())) };
    }
}

} // namespace

GroupRun::GroupRun(const ModelSpec& model, Mode mode, const ExperimentConfig& config, int64_t startNs)
    : model(model)
    , mode(mode)
    , modeName(toString(mode))
    , label(model.name + "/" + modeName + sweepPointSuffix(sweptKeys(config), config.hostWorkUsFor(model), model.batch))
    , startNs(startNs)
    , deadlineNs(startNs + int64_t(config.timeBudgetSFor(model) * 1e9))
    , steps(config.stepsPerBlockFor(model))
    , maxRounds(config.blocksFor(model))
    , hostWorkUs(config.hostWorkUsFor(model))
{
    group.model = model.name;
    group.mode = modeName;
    group.hostWorkUs = hostWorkUs;
    group.batch = model.batch;
}

GroupRun::~GroupRun() = default;

bool GroupRun::outOfTime()
{
    budgetSpent = budgetSpent || steadyNowNs() >= deadlineNs;
    return budgetSpent;
}

std::vector<CellResult*> GroupRun::results() const
{
    std::vector<CellResult*> all;
    for (const auto& cell : cells)
        all.push_back(cell.result);
    return all;
}

std::vector<CellResult> GroupRun::resultCopies() const
{
    std::vector<CellResult> all;
    for (const auto& cell : cells)
        all.push_back(*cell.result);
    return all;
}

void GroupRun::fail(CellRun& cell, const std::string& message)
{
    cell.result->ok = false;
    cell.result->error = message;
    cell.style.reset();
}

void GroupRun::analyse(uint64_t seed)
{
    for (auto& cell : cells)
        summarise(cell);
    analyseGroup(results(), group, seed);
    // The queue model's expectation beside each measurement: one simulated block per style, cheap
    // (steps x launches of arithmetic), from this group's own D, G, L, K and H.
    if (group.regime.available) {
        const CellResult* baseline = nullptr;
        for (const auto& cell : cells) {
            if (cell.result->style == baselineStyle() && !baseline)
                baseline = cell.result;
        }
        std::vector<Prediction> predictions;
        if (group.replay) {
            const BaselineFit f = fitCapturedReplay(*group.replay, baseline, steps, double(hostWorkUs));
            group.replay->baselineHostScale = f.fit.hostScale;
            group.replay->tailMs = f.fit.tailMs;
            group.replay->idleStartUs = f.fit.idleStartUs;
            group.replay->regime = f.fit.regime;
            group.regime.label = f.fit.regime.label;
            predictions = replayPredictions(f.fit, group.replay->costs, specs, steps, double(hostWorkUs));
        } else {
            const double baselineLagMs = baseline && baseline->queue ? baseline->queue->medianLagMs : 0;
            predictions = predictOverheads(group.regime, specs, steps, baselineLagMs);
        }
        for (size_t i = 0; i < cells.size(); ++i) {
            if (cells[i].result->ok && cells[i].result->style != baselineStyle())
                cells[i].result->prediction = predictions[i];
        }
    }
    if (!clockSamples.empty()) {
        group.clocks.blocks = int(clockSamples.size());
        group.clocks.minMhz = *std::min_element(clockSamples.begin(), clockSamples.end());
        group.clocks.maxMhz = *std::max_element(clockSamples.begin(), clockSamples.end());
        std::nth_element(
            clockSamples.begin(), clockSamples.begin() + long(clockSamples.size() / 2), clockSamples.end());
        group.clocks.medianMhz = clockSamples[clockSamples.size() / 2];
        for (const auto& cell : cells)
            group.clocks.lowClockBlocks += cell.result->lowClockBlocks;
    }
}

} // namespace synctax
