#include "core/engine/run/experimentrunner.h"

#include "core/analysis/groupanalysis.h"
#include "core/config/stylecatalog.h"
#include "core/engine/gpu/gpuclocks.h"
#include "core/engine/gpu/gputimeline.h"
#include "core/engine/gpu/hostclock.h"
#include "core/engine/gpu/synccounter.h"
#include "core/engine/run/blockrunner.h"
#include "core/engine/run/devices.h"
#include "core/engine/run/errortext.h"
#include "core/engine/run/grouprun.h"
#include "core/engine/run/launchcapture.h"
#include "core/engine/run/regimeprobe.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/styles/sink.h"
#include "core/engine/training/stepexecutor.h"
#include "core/steps/stepring.h"
#include "core/text/format.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numeric>

namespace synctax {

ExperimentRunner::ExperimentRunner(ExperimentConfig config, StepRing* ring, uint32_t runId)
    : m_config(std::move(config))
    , m_ring(ring)
    , m_runId(runId)
    , m_device(resolveDevice(m_config.device))
    , m_sink(std::make_unique<Sink>(m_config.sink))
    , m_rng(m_config.seed)
    , m_groupModels(sweepGrid(m_config))
{
    for (const auto& model : m_groupModels) {
        for (Mode mode : m_config.modes) {
            const auto add = [&](const std::string& style) {
                m_cells.push_back(cellPlan(uint32_t(m_cells.size()),
                    { { model.name, toString(mode), model.hostWorkUs, model.batch }, style }));
            };
            for (const auto& style : m_config.styles) {
                add(style.name);
                if (style.name == baselineStyle())
                    add(aaControlStyle());
                if (style.name == baselineStyle() && m_config.observerControl)
                    add(observerControlStyle());
            }
        }
    }
}

ExperimentRunner::~ExperimentRunner() = default;

int64_t ExperimentRunner::plannedBlocks() const
{
    int64_t total = 0;
    for (const auto& model : m_groupModels) {
        for (Mode mode : m_config.modes)
            total += plannedBlocks(model, mode);
    }
    return total;
}

int64_t ExperimentRunner::plannedBlocks(const ModelSpec& model, Mode mode) const
{
    // Every cell (styles, the A/A control, the observer control) runs one block a round, plus the
    // unrecorded first round.
    const GroupKey key { model.name, toString(mode), model.hostWorkUs, model.batch };
    const auto cells
        = std::count_if(m_cells.begin(), m_cells.end(), [&](const CellPlan& c) { return groupKeyOf(c) == key; });
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
    p.remainingS = estimateRemainingS(left, m_blocksRun > 0 ? p.elapsedS / double(m_blocksRun) : 0.0);
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
    m_blocksRun = 0;
    m_groupPlans.clear();
    for (const auto& model : m_groupModels) {
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
    for (const auto& model : m_groupModels) {
        for (Mode mode : m_config.modes) {
            if (stopped(stop))
                continue;
            m_groupStartNs = steadyNowNs();
            m_groupFirstBlock = m_blocksDone;
            runGroup(model, mode, stop, result);
            ++m_group;
        }
    }
    result.durationS = double(steadyNowNs() - m_startNs) * 1e-9;
    result.stopped = lockstep ? m_lockstepStopped : stop.load();
    if (!m_lockstepLost.empty())
        result.notes.push_back("the ranks lost each other, so the run ended early: " + m_lockstepLost);
    result.droppedRecords = m_ring ? m_ring->dropped() : 0;
    return result;
}

void ExperimentRunner::runGroup(
    const ModelSpec& model, Mode mode, const std::atomic<bool>& stop, ExperimentResult& result)
{
    GroupRun run(model, mode, m_config, steadyNowNs());
    addCells(run, result);
    if (const auto error = buildAndWarmUp(run, stop)) {
        if (lockstep)
            m_lockstepLost = *error; // the others may wait in a broadcast or a warm-up step
        failGroup(run, *error, result);
        return;
    }
    makeStyles(run);
    if (lockstep && !agreeOnCells(run)) {
        failGroup(run, m_lockstepLost, result);
        return;
    }
    runRounds(run, stop, result);
    run.analyse(m_config.seed);
    publishGroup(run, result);
}

void ExperimentRunner::addCells(GroupRun& run, ExperimentResult& result)
{
    run.group.clocks.available = m_clocks != nullptr;
    run.group.clocks.reason = m_clocksUnavailable;
    if (m_clocks)
        run.group.clocks.defaultMhz = m_clocks->defaultSmMhz();
    for (const auto& plan : m_cells) {
        if (groupKeyOf(plan) != groupKeyOf(run.group))
            continue;
        CellResult r;
        r.model = run.model.name;
        r.mode = run.modeName;
        r.style = plan.style;
        r.hostWorkUs = run.group.hostWorkUs;
        r.batch = run.group.batch;
        r.stepsPerBlock = run.steps;
        // run() reserved room for every cell, so these pointers stay valid.
        result.cells.push_back(r);
        CellRun cell;
        cell.result = &result.cells.back();
        cell.index = plan.index;
        run.cells.push_back(std::move(cell));
        run.specs.push_back(m_config.styleSpecOf(plan.style));
    }
}

std::optional<std::string> ExperimentRunner::buildAndWarmUp(GroupRun& run, const std::atomic<bool>& stop)
{
    const torch::Device device(m_device);
    try {
        reportProgress(run.label + ": building model");
        auto state = std::make_unique<TrainingState>(run.model, device, m_config.optimizer, m_config.learningRate,
            lockstep ? lockstep->stateSeed : m_config.seed);
        run.executor
            = lockstep ? lockstep->makeExecutor(std::move(state)) : makeStepExecutor(run.mode, std::move(state));
        reportProgress(run.label + ": warming up");
        // Warm-up counts against the model's time budget: it may take half of it, the rounds the rest.
        // In lockstep every rank warms up for min_steps, the same count.
        const auto warmupDeadline = lockstep ? 0 : run.startNs + int64_t(m_config.timeBudgetSFor(run.model) * 0.5e9);
        const int64_t warmupMax = lockstep ? m_config.warmupMinSteps : m_config.warmupMaxSteps;
        run.group.warmupSteps = warmUp(*run.executor, m_config.warmupMinSteps, warmupMax, run.hostWorkUs,
            blockStop(stop), warmupDeadline, [&] { reportProgress(run.label + ": warming up"); });
        if (lockstep) {
            if (lockstep->takeWaitMs)
                lockstep->takeWaitMs(); // warm-up's waits belong to no block
            // The probe's and the capture's steps would all-reduce on one rank alone.
            run.group.regime.reason
                = run.executor->state().device().is_cuda() ? "not measured in a data-parallel run" : noQueueOnCpu;
            return std::nullopt;
        }
        reportProgress(run.label + ": measuring D, G, L, K");
        run.group.regime = measureRegime(*run.executor, run.hostWorkUs);
        if (run.group.regime.available)
            captureReplay(run);
    } catch (const std::exception& e) {
        return errorText(e);
    }
    return std::nullopt;
}

void ExperimentRunner::captureReplay(GroupRun& run)
{
    reportProgress(run.label + ": capturing a step with the profiler");
    CaptureRequest request;
    request.label = run.label;
    request.keepDir = kinetoDir;
    request.styles = run.specs;
    request.sink = m_sink.get();
    request.stepsPerBlock = run.steps;
    request.gMs = run.group.regime.gMs;
    request.hostWorkUs = double(run.hostWorkUs);
    request.syncUs = run.group.regime.lUs;
    std::string reason;
    run.group.replay = captureLaunchSequence(*run.executor, request, reason);
    if (run.group.replay)
        run.group.regime.label = run.group.replay->regime.label;
    else
        run.group.replayAbsent = reason;
}

void ExperimentRunner::failGroup(GroupRun& run, const std::string& error, ExperimentResult& result)
{
    for (auto& cell : run.cells)
        run.fail(cell, error);
    m_blocksDone += plannedBlocks(run.model, run.mode);
    run.group.stopReason = "failed";
    reportProgress(run.label + ": failed");
    publishGroup(run, result);
}

void ExperimentRunner::makeStyles(GroupRun& run)
{
    const StyleContext context { *m_sink, torch::Device(m_device), run.steps };
    const StyleSpec baseline { baselineStyle(), 0 };
    for (size_t i = 0; i < run.cells.size(); ++i) {
        run.cells[i].result->warmupSteps = run.group.warmupSteps;
        try {
            const bool logs = !lockstep || lockstep->runsStyles;
            run.cells[i].style = makeLoggingStyle(logs ? run.specs[i] : baseline, context);
        } catch (const std::exception& e) {
            run.fail(run.cells[i], errorText(e));
        }
    }
}

void ExperimentRunner::runRounds(GroupRun& run, const std::atomic<bool>& stop, ExperimentResult& result)
{
    std::vector<size_t> order(run.cells.size());
    std::iota(order.begin(), order.end(), size_t(0));
    // Round -1 runs every style once unrecorded: first-use costs (pinned buffers, files) stay out.
    int round = -1;
    int64_t lastCheckNs = 0;
    // The time budget ends the rounds the way a stop does: before a block, or within it after a step.
    for (; round < run.maxRounds && !stopped(stop) && (lockstep || !run.outOfTime()); ++round) {
        runRound(run, round, order, stop, result);
        if (stopped(stop) || round < 0)
            continue;
        if (lockstep ? roundsDoneTogether(run, round, lastCheckNs, stop) : roundsDone(run, round, lastCheckNs)) {
            ++round;
            break;
        }
    }
    endRounds(run, round, stop);
}

void ExperimentRunner::runRound(
    GroupRun& run, int round, std::vector<size_t>& order, const std::atomic<bool>& stop, ExperimentResult& result)
{
    std::shuffle(order.begin(), order.end(), m_rng);
    if (round >= 0) {
        RoundOrder ro { { run.model.name, run.modeName, run.group.hostWorkUs, run.group.batch }, round, {} };
        for (size_t i : order)
            ro.styles.push_back(run.cells[i].result->style);
        result.roundOrders.push_back(std::move(ro));
    }
    for (size_t i : order) {
        if (lockstep ? !m_lockstepLost.empty() : stop.load() || run.outOfTime())
            break;
        CellRun& cell = run.cells[i];
        if (cell.style) {
            runCellBlock(run, cell, round, stop);
            ++m_blocksRun;
        }
        ++m_blocksDone;
        reportProgress(run.label + "/" + cell.result->style);
    }
}

void ExperimentRunner::runCellBlock(GroupRun& run, CellRun& cell, int round, const std::atomic<bool>& stop)
{
    StepRecord tag;
    tag.runId = m_runId;
    tag.cell = cell.index;
    tag.round = round;
    try {
        const bool observer = cell.result->style == observerControlStyle();
        SyncCounter* syncs = round < 0 ? m_syncs.get() : nullptr;
        const int64_t replaysBefore = run.executor->replays();
        const std::string running = run.label + "/" + cell.result->style + ": running";
        BlockTiming t = runBlock({ *run.executor, *cell.style, run.steps, run.hostWorkUs, tag,
                                     observer ? nullptr : m_timeline.get(), syncs, lockstep ? 0 : run.deadlineNs,
                                     [&] { reportProgress(running); }, lockstep ? lockstep->takeWaitMs : nullptr },
            m_ring, m_startNs, blockStop(stop));
        if (syncs && t.complete)
            cell.result->syncsPerStep = double(t.syncs) / double(run.steps);
        // A block cut short (a stop, the time budget) is not comparable with whole ones: not recorded.
        if (!t.complete || round < 0)
            return;
        if (onBlockMeasured)
            onBlockMeasured(m_cells[cell.index], round, run.steps, t.msPerStep);
        for (const QueueSample& q : t.queue) {
            cell.lagMs.push_back(q.lagMs);
            cell.queueSteps.push_back(q.queueSteps);
        }
        if (run.mode == Mode::CudaGraph)
            cell.result->graphReplays
                = std::max<int64_t>(cell.result->graphReplays, 0) + run.executor->replays() - replaysBefore;
        cell.result->blockRounds.push_back(round);
        cell.result->blockStepMs.push_back(t.msPerStep);
        cell.result->blockDispatchMs.push_back(t.dispatchMsPerStep);
        if (run.steps >= 2)
            cell.result->blockFirstStepsMs.push_back(t.firstStepsDispatchMs);
        cell.result->stepsMeasured += run.steps;
        cell.stepMs.insert(cell.stepMs.end(), t.stepMs.begin(), t.stepMs.end());
        cell.waitMs.insert(cell.waitMs.end(), t.waitMs.begin(), t.waitMs.end());
        if (const ClockSample clock = m_clocks ? m_clocks->sample() : ClockSample {}; clock.ok) {
            run.clockSamples.push_back(clock.smMhz);
            run.group.clocks.throttleReasons |= clock.throttleReasons;
            if (clock.smMhz < 0.75 * run.group.clocks.defaultMhz)
                ++cell.result->lowClockBlocks;
        }
    } catch (const std::exception& e) {
        run.fail(cell, errorText(e));
        // In lockstep the others are somewhere in this block: no later collective would pair up.
        if (lockstep)
            m_lockstepLost = "a block failed: " + errorText(e);
    }
}

bool ExperimentRunner::roundsDone(GroupRun& run, int round, int64_t& lastCheckNs)
{

    const int64_t nowNs = steadyNowNs();
    // The stopping check bootstraps every cell, tens of milliseconds once there are hundreds of
    // rounds: it runs when min_blocks is reached and then at most once a second, so that
    // measuring, not checking, fills the budget.
    const int64_t minBlocks = m_config.minBlocksFor(run.model);
    const bool checkDue = round + 1 == minBlocks || (round + 1 > minBlocks && nowNs - lastCheckNs >= 1'000'000'000);
    if (checkDue)
        lastCheckNs = nowNs;
    if (checkDue && widestHalfWidthPct(run.results(), m_config.seed) < m_config.targetCiPp) {
        run.group.stopReason = "ci_target";
        return true;
    }
    return run.outOfTime();
}

void ExperimentRunner::endRounds(GroupRun& run, int rounds, const std::atomic<bool>& stop)
{
    run.group.rounds = std::max(rounds, 0);
    if (stopped(stop))
        run.group.stopReason = "stopped";
    else if (run.group.stopReason.empty())
        run.group.stopReason = run.budgetSpent ? "time_budget" : "max_blocks";
    // Blocks an early end skipped (whole rounds, the rest of a round cut short) still count as done,
    // so the progress ends at 100%.
    m_blocksDone = m_groupFirstBlock + plannedBlocks(run.model, run.mode);
    reportProgress(run.label + ": " + run.group.stopReason);
}

void ExperimentRunner::publishGroup(const GroupRun& run, ExperimentResult& result)
{
    result.groups.push_back(run.group);
    if (onGroupFinished)
        onGroupFinished(run.group, run.resultCopies());
}

} // namespace synctax
