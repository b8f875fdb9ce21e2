#include "core/engine/experimentrunner.h"

#include "core/analysis/format.h"
#include "core/analysis/groupanalysis.h"
#include "core/analysis/statistics.h"
#include "core/config/stylecatalog.h"
#include "core/engine/blockrunner.h"
#include "core/engine/devices.h"
#include "core/engine/regimeprobe.h"
#include "core/gpu/gpuclocks.h"
#include "core/gpu/gputimeline.h"
#include "core/gpu/hostclock.h"
#include "core/gpu/synccounter.h"
#include "core/queuemodel/prediction.h"
#include "core/steps/stepring.h"
#include "core/styles/loggingstyle.h"
#include "core/styles/sink.h"
#include "core/training/stepexecutor.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numeric>

namespace synctax {

namespace {

std::string errorText(const std::exception& e)
{
    if (const auto* c10Error = dynamic_cast<const c10::Error*>(&e))
        return c10Error->what_without_backtrace();
    return e.what();
}

struct CellState {
    CellResult* result = nullptr;
    uint32_t index = 0;
    std::unique_ptr<LoggingStyle> style;
    std::vector<double> stepMs; // every measured step's duration, start to next start
    std::vector<double> lagMs; // per measured step, from the CUDA events
    std::vector<double> queueSteps;
};

void summarise(CellState& cell)
{
    CellResult& r = *cell.result;
    if (cell.stepMs.empty())
        return;
    r.stepMs.median = median(cell.stepMs);
    r.stepMs.p10 = quantile(cell.stepMs, 0.10);
    r.stepMs.p90 = quantile(cell.stepMs, 0.90);
    r.stepMs.mean = std::accumulate(cell.stepMs.begin(), cell.stepMs.end(), 0.0) / double(cell.stepMs.size());
    if (!cell.queueSteps.empty()) {
        r.queue = QueueSummary { median(cell.lagMs), median(cell.queueSteps),
            int(*std::max_element(cell.queueSteps.begin(), cell.queueSteps.end())) };
    }
}

} // namespace

ExperimentRunner::ExperimentRunner(ExperimentConfig config, StepRing* ring, uint32_t runId)
    : m_config(std::move(config))
    , m_ring(ring)
    , m_runId(runId)
    , m_device(resolveDevice(m_config.device))
    , m_sink(std::make_unique<Sink>(m_config.sink))
    , m_rng(m_config.seed)
{
    for (const auto& model : m_config.models) {
        for (Mode mode : m_config.modes) {
            for (const auto& style : m_config.styles) {
                m_cells.push_back({ uint32_t(m_cells.size()), model.name, toString(mode), style.name });
                if (style.name == baselineStyle())
                    m_cells.push_back({ uint32_t(m_cells.size()), model.name, toString(mode), aaControlStyle() });
                if (style.name == baselineStyle() && m_config.observerControl)
                    m_cells.push_back({ uint32_t(m_cells.size()), model.name, toString(mode), observerControlStyle() });
            }
        }
    }
}

ExperimentRunner::~ExperimentRunner() = default;

int64_t ExperimentRunner::plannedBlocks() const
{
    int64_t total = 0;
    for (const auto& model : m_config.models) {
        for (Mode mode : m_config.modes)
            total += plannedBlocks(model, mode);
    }
    return total;
}

int64_t ExperimentRunner::plannedBlocks(const ModelSpec& model, Mode mode) const
{
    // Every cell (styles, the A/A control, the observer control) runs one block a round, plus the
    // unrecorded first round.
    const auto cells = std::count_if(m_cells.begin(), m_cells.end(),
        [&](const CellPlan& c) { return c.model == model.name && c.mode == toString(mode); });
    return int64_t(cells) * (m_config.blocksFor(model) + 1);
}

void ExperimentRunner::reportProgress(const std::string& cell)
{
    if (!onProgress)
        return;
    const int64_t nowNs = steadyNowNs();
    RunProgress p { m_blocksDone, plannedBlocks(), cell, double(nowNs - m_startNs) * 1e-9 };
    std::vector<GroupWork> left;
    for (size_t g = m_group; g < m_groupPlans.size(); ++g) {
        GroupWork w = m_groupPlans[g];
        if (g == m_group && m_groupStartNs > 0) {
            w.blocksLeft -= m_blocksDone - m_groupFirstBlock;
            w.budgetLeftS -= double(nowNs - m_groupStartNs) * 1e-9;
        }
        left.push_back(w);
    }
    p.remainingS = estimateRemainingS(left, m_blocksDone > 0 ? p.elapsedS / double(m_blocksDone) : 0.0);
    onProgress(p);
}

ExperimentResult ExperimentRunner::run(const std::atomic<bool>& stop)
{
    ExperimentResult result;
    result.environment = describeEnvironment(m_device);
    result.config = m_config;
    result.startedAt = formatTimestamp(std::chrono::system_clock::now(), TimestampStyle::Iso8601Utc);
    result.cells.reserve(m_cells.size());
    m_startNs = steadyNowNs();
    m_blocksDone = 0;
    m_groupPlans.clear();
    for (const auto& model : m_config.models) {
        for (Mode mode : m_config.modes)
            m_groupPlans.push_back({ plannedBlocks(model, mode), m_config.timeBudgetSFor(model) });
    }
    m_group = 0;
    m_groupStartNs = 0;

    m_timeline = m_config.gpuEvents ? GpuTimeline::make(m_device) : nullptr;
    m_syncs = SyncCounter::make(m_device);
    if (m_device == "cpu") {
        m_clocksUnavailable = "device cpu: no GPU clocks";
    } else {
        m_clocks = GpuClocks::open(result.environment.pciBusId, m_clocksUnavailable);
        if (!m_clocks) {
            result.notes.push_back(m_clocksUnavailable);
            if (onNote)
                onNote(m_clocksUnavailable);
        }
    }
    if (m_device == "cpu") {
        const std::string note = "device cpu: no asynchronous queue on CPU, so a sync has no queued work to wait "
                                 "for: overheads are host costs only, and queue depth, lag, syncs and the regime "
                                 "are not measured";
        result.notes.push_back(note);
        if (onNote)
            onNote(note);
    }
    for (const auto& model : m_config.models) {
        for (Mode mode : m_config.modes) {
            if (stop.load())
                continue;
            m_groupStartNs = steadyNowNs();
            m_groupFirstBlock = m_blocksDone;
            runGroup(model, mode, stop, result);
            ++m_group;
        }
    }
    result.durationS = double(steadyNowNs() - m_startNs) * 1e-9;
    result.stopped = stop.load();
    result.droppedRecords = m_ring ? m_ring->dropped() : 0;
    return result;
}

void ExperimentRunner::runGroup(
    const ModelSpec& model, Mode mode, const std::atomic<bool>& stop, ExperimentResult& result)
{
    const torch::Device device(m_device);
    const int64_t groupStartNs = steadyNowNs();
    const int64_t steps = m_config.stepsPerBlockFor(model);
    const int64_t maxRounds = m_config.blocksFor(model);
    const int64_t hostWork = m_config.hostWorkUsFor(model);
    const std::string modeName = toString(mode);
    const std::string groupLabel = model.name + "/" + modeName;

    GroupResult group;
    group.model = model.name;
    group.mode = modeName;
    group.clocks.available = m_clocks != nullptr;
    group.clocks.reason = m_clocksUnavailable;
    if (m_clocks)
        group.clocks.defaultMhz = m_clocks->defaultSmMhz();

    std::vector<CellState> cells;
    std::vector<StyleSpec> specs;
    for (const auto& plan : m_cells) {
        if (plan.model != model.name || plan.mode != modeName)
            continue;
        CellResult r;
        r.model = model.name;
        r.mode = modeName;
        r.style = plan.style;
        r.stepsPerBlock = steps;
        result.cells.push_back(r);
        CellState state;
        state.result = &result.cells.back();
        state.index = plan.index;
        cells.push_back(std::move(state));
        const bool aa = plan.style == aaControlStyle() || plan.style == observerControlStyle();
        auto spec = std::find_if(m_config.styles.begin(), m_config.styles.end(),
            [&](const StyleSpec& s) { return s.name == (aa ? baselineStyle() : plan.style); });
        specs.push_back(*spec);
    }
    std::vector<CellResult*> results;
    for (auto& cell : cells)
        results.push_back(cell.result);
    const auto fail = [](CellState& cell, const std::string& message) {
        cell.result->ok = false;
        cell.result->error = message;
        cell.style.reset();
    };

    std::unique_ptr<StepExecutor> executor;
    try {
        reportProgress(groupLabel + ": building model");
        auto state
            = std::make_unique<TrainingState>(model, device, m_config.optimizer, m_config.learningRate, m_config.seed);
        executor = makeStepExecutor(mode, std::move(state));
        reportProgress(groupLabel + ": warming up");
        // Warm-up counts against the model's time budget: it may take half of it, the rounds the rest.
        const auto warmupDeadline = groupStartNs + int64_t(m_config.timeBudgetSFor(model) * 0.5e9);
        group.warmupSteps
            = warmUp(*executor, m_config.warmupMinSteps, m_config.warmupMaxSteps, hostWork, stop, warmupDeadline);
        reportProgress(groupLabel + ": measuring D, G, L, K");
        group.regime = measureRegime(*executor, hostWork);
    } catch (const std::exception& e) {
        for (auto& cell : cells)
            fail(cell, errorText(e));
        m_blocksDone += plannedBlocks(model, mode);
        group.stopReason = "failed";
        result.groups.push_back(group);
        reportProgress(groupLabel + ": failed");
        if (onGroupFinished) {
            std::vector<CellResult> failed;
            for (const auto& cell : cells)
                failed.push_back(*cell.result);
            onGroupFinished(group, failed);
        }
        return;
    }
    const StyleContext context { *m_sink, device, steps };
    for (size_t i = 0; i < cells.size(); ++i) {
        cells[i].result->warmupSteps = group.warmupSteps;
        try {
            cells[i].style = makeLoggingStyle(specs[i], context);
        } catch (const std::exception& e) {
            fail(cells[i], errorText(e));
        }
    }

    std::vector<unsigned> clockSamples;
    std::vector<size_t> order(cells.size());
    std::iota(order.begin(), order.end(), size_t(0));
    // Round -1 runs every style once unrecorded: first-use costs (pinned buffers, files) stay out.
    int round = -1;
    int64_t lastCheckNs = 0;
    for (; round < maxRounds && !stop.load(); ++round) {
        std::shuffle(order.begin(), order.end(), m_rng);
        if (round >= 0) {
            RoundOrder ro { model.name, modeName, round, {} };
            for (size_t i : order)
                ro.styles.push_back(cells[i].result->style);
            result.roundOrders.push_back(std::move(ro));
        }
        for (size_t i : order) {
            if (stop.load())
                break;
            CellState& cell = cells[i];
            if (cell.style) {
                StepRecord tag;
                tag.runId = m_runId;
                tag.cell = cell.index;
                tag.round = round;
                try {
                    const bool observer = cell.result->style == observerControlStyle();
                    SyncCounter* syncs = round < 0 ? m_syncs.get() : nullptr;
                    const int64_t replaysBefore = executor->replays();
                    BlockTiming t = runBlock(
                        { *executor, *cell.style, steps, hostWork, tag, observer ? nullptr : m_timeline.get(), syncs },
                        m_ring, m_startNs, stop);
                    if (syncs && t.complete)
                        cell.result->syncsPerStep = double(t.syncs) / double(steps);
                    if (t.complete && round >= 0 && onBlockMeasured)
                        onBlockMeasured(m_cells[cell.index], round, steps, t.msPerStep);
                    if (t.complete && round >= 0) {
                        for (const QueueSample& q : t.queue) {
                            cell.lagMs.push_back(q.lagMs);
                            cell.queueSteps.push_back(q.queueSteps);
                        }
                        if (mode == Mode::CudaGraph)
                            cell.result->graphReplays
                                = std::max<int64_t>(cell.result->graphReplays, 0) + executor->replays() - replaysBefore;
                        cell.result->blockRounds.push_back(round);
                        cell.result->blockStepMs.push_back(t.msPerStep);
                        cell.result->stepsMeasured += steps;
                        cell.stepMs.insert(cell.stepMs.end(), t.stepMs.begin(), t.stepMs.end());
                        if (const ClockSample clock = m_clocks ? m_clocks->sample() : ClockSample {}; clock.ok) {
                            clockSamples.push_back(clock.smMhz);
                            group.clocks.throttleReasons |= clock.throttleReasons;
                            if (clock.smMhz < 0.75 * group.clocks.defaultMhz)
                                ++cell.result->lowClockBlocks;
                        }
                    }
                } catch (const std::exception& e) {
                    fail(cell, errorText(e));
                }
            }
            ++m_blocksDone;
            reportProgress(groupLabel + "/" + cell.result->style);
        }
        if (stop.load() || round < 0)
            continue;
        const int64_t nowNs = steadyNowNs();
        const double elapsedS = double(nowNs - groupStartNs) * 1e-9;
        // The stopping check bootstraps every cell, tens of milliseconds once there are hundreds of
        // rounds: it runs when min_blocks is reached and then at most once a second, so that
        // measuring, not checking, fills the budget.
        const bool checkDue = round + 1 == m_config.minBlocksFor(model)
            || (round + 1 > m_config.minBlocksFor(model) && nowNs - lastCheckNs >= 1'000'000'000);
        if (checkDue)
            lastCheckNs = nowNs;
        if (checkDue && widestHalfWidthPct(results, m_config.seed) < m_config.targetCiPp) {
            group.stopReason = "ci_target";
            ++round;
            break;
        }
        if (elapsedS >= m_config.timeBudgetSFor(model)) {
            group.stopReason = "time_budget";
            ++round;
            break;
        }
    }
    group.rounds = std::max(round, 0);
    if (stop.load())
        group.stopReason = "stopped";
    else if (group.stopReason.empty())
        group.stopReason = "max_blocks";
    // Rounds skipped by an early stop still count as done, so the progress ends at 100%.
    m_blocksDone += int64_t(cells.size()) * (maxRounds - group.rounds);
    reportProgress(groupLabel + ": " + group.stopReason);

    for (auto& cell : cells)
        summarise(cell);
    analyseGroup(results, group, m_config.seed);
    // The queue model's expectation beside each measurement: one simulated block per style, cheap
    // (steps x launches of arithmetic), from this group's own D, G, L, K and H.
    if (group.regime.available) {
        double baselineLagMs = 0;
        for (const auto& cell : cells) {
            if (cell.result->style == baselineStyle() && cell.result->queue)
                baselineLagMs = cell.result->queue->medianLagMs;
        }
        const std::vector<Prediction> predictions = predictOverheads(group.regime, specs, steps, baselineLagMs);
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
    result.groups.push_back(group);
    if (onGroupFinished) {
        std::vector<CellResult> finished;
        for (const auto& cell : cells)
            finished.push_back(*cell.result);
        onGroupFinished(group, finished);
    }
}

} // namespace synctax
