#include "core/queuemodel/simulator.h"

#include "core/config/stylecatalog.h"
#include "core/steps/queuesample.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>

namespace synctax {

namespace {

// What a style adds to a step, beyond the syncs its cadence places: its catalog cost in this
// model's units.
struct StyleCost {
    int roundTrips = 0; // per sync point
    int extraLaunches = 0; // small kernels per step
    double hostUs = 0; // formatting, drawing, printing, per step
};

StyleCost costOf(const StyleInfo* style, const QueueModel& m)
{
    if (!style)
        return {}; // the baseline's copies, which the catalog does not list
    const SimulatedCost& cost = style->cost;
    return { cost.roundTripsPerRead, cost.extraLaunches, hostWorkCostUs(cost.hostWork, m.formatUs, m.redrawUs) };
}

// The seed of one step's jitter: independent of the style, so paired blocks share GPU times.
uint64_t stepSeed(uint64_t seed, int64_t round, int64_t step)
{
    uint64_t x = seed ^ (uint64_t(round + 1) << 32) ^ uint64_t(step);
    x += 0x9e3779b97f4a7c15ULL; // splitmix64: neighbouring inputs give unrelated streams
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

Simulator::Simulator(QueueModel model)
    : m_model(model)
{
    m_model.k = std::max<int64_t>(1, m_model.k);
    m_model.queueCapacity = std::max<int64_t>(1, m_model.queueCapacity);
    m_model.jitter = std::clamp(m_model.jitter, 0.0, 1.0);
}

int64_t Simulator::nowNs() const { return int64_t(std::llround(m_nowNs)); }

SimulatedBlock Simulator::runBlock(
    const StyleSpec& style, int64_t steps, const StepRecord& tag, std::vector<StepRecord>* records)
{
    const QueueModel& m = m_model;
    const StyleInfo* info = findStyle(style.name);
    const StyleCost cost = costOf(info, m);
    const double launchHostNs = m.dMs * 1e6 / double(m.k);
    const double tailNs = m.k > 1 ? std::clamp(m.tailMs, 0.0, m.gMs) * 1e6 : 0.0;
    const double launchGpuNs = (m.gMs * 1e6 - tailNs) / double(m.k > 1 && tailNs > 0 ? m.k - 1 : m.k);
    const double roundTripNs = m.lUs * 1e3;
    const size_t capacity = size_t(m.queueCapacity);

    SimulatedBlock block;
    double host = m_nowNs;
    double gpuFree = host; // the block starts after a synchronize: nothing is queued
    std::deque<double> pending; // completion times of the launches queued and not complete, in order
    const auto launch = [&](double gpuNs) {
        while (pending.size() >= capacity) {
            host = std::max(host, pending.front());
            pending.pop_front();
        }
        host += launchHostNs;
        while (!pending.empty() && pending.front() <= host)
            pending.pop_front();
        gpuFree = std::max(gpuFree, host) + gpuNs;
        pending.push_back(gpuFree);
        block.maxQueueLaunches = std::max<int64_t>(block.maxQueueLaunches, int64_t(pending.size()));
    };
    const auto sync = [&] {
        host = std::max(host, gpuFree) + roundTripNs;
        pending.clear();
    };

    const double start = host;
    std::vector<int64_t> dispatched, done;
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int64_t step = 0; step < steps; ++step) {
        const double stepStart = host;
        host += m.hUs * 1e3;
        std::mt19937_64 rng(stepSeed(m.seed, tag.round, step));
        for (int64_t i = 0; i < m.k; ++i) {
            const double gpuNs = tailNs > 0 && i + 1 == m.k ? tailNs : launchGpuNs;
            launch(gpuNs * (m.jitter > 0 ? 1.0 + m.jitter * unit(rng) : 1.0));
        }
        for (int i = 0; i < cost.extraLaunches; ++i)
            launch(m.extraLaunchUs * 1e3);
        const double dispatchEnd = host;
        const double gpuDone = gpuFree;
        if (info && syncsAfterStep(*info, style.n, step, steps)) {
            for (int i = 0; i < cost.roundTrips; ++i)
                sync();
            block.syncs += cost.roundTrips;
        }
        host += cost.hostUs * 1e3;
        dispatched.push_back(std::llround(dispatchEnd));
        done.push_back(std::llround(gpuDone));
        if (records) {
            StepRecord r = tag;
            r.step = uint32_t(step);
            r.startNs = std::llround(stepStart);
            r.dispatchedNs = dispatched.back();
            r.loggedNs = std::llround(host);
            r.gpuDoneNs = done.back();
            records->push_back(r);
        }
    }
    sync(); // the closing synchronize every style pays, the baseline included
    m_nowNs = host;

    if (records) {
        const std::vector<QueueSample> queue = queueSamples(dispatched, done);
        const size_t first = records->size() - queue.size();
        for (size_t i = 0; i < queue.size(); ++i) {
            (*records)[first + i].lagMs = float(queue[i].lagMs);
            (*records)[first + i].queueSteps = queue[i].queueSteps;
        }
    }
    block.durationNs = std::llround(host - start);
    block.msPerStep = steps > 0 ? (host - start) * 1e-6 / double(steps) : 0;
    return block;
}

std::vector<StyleSimulation> simulateStyles(const QueueModel& model, const std::vector<StyleSpec>& styles,
    int64_t stepsPerBlock, int64_t blocks, std::vector<StepRecord>* records, uint32_t firstCell)
{
    Simulator simulator(model);
    const StyleSpec baseline { baselineStyle(), 0 };
    const bool listed
        = std::any_of(styles.begin(), styles.end(), [](const StyleSpec& s) { return s.name == baselineStyle(); });
    std::vector<double> totalNs(styles.size(), 0.0);
    std::vector<StyleSimulation> result(styles.size());
    // The baseline's time is counted once, from its first entry: a run's list holds the baseline
    // twice when the A/A control (a copy of it) is on.
    const size_t baselineIndex = size_t(std::find_if(styles.begin(), styles.end(), [](const StyleSpec& s) {
        return s.name == baselineStyle();
    }) - styles.begin());
    double baselineNs = 0;
    for (int64_t round = 0; round < blocks; ++round) {
        StepRecord tag;
        tag.round = int32_t(round);
        if (!listed)
            baselineNs += double(simulator.runBlock(baseline, stepsPerBlock, tag).durationNs);
        for (size_t i = 0; i < styles.size(); ++i) {
            tag.cell = firstCell + uint32_t(i);
            const SimulatedBlock b = simulator.runBlock(styles[i], stepsPerBlock, tag, records);
            totalNs[i] += double(b.durationNs);
            result[i].maxQueueLaunches = std::max(result[i].maxQueueLaunches, b.maxQueueLaunches);
            result[i].syncsPerStep += double(b.syncs);
            if (i == baselineIndex)
                baselineNs += double(b.durationNs);
        }
    }
    const double stepCount = double(std::max<int64_t>(1, stepsPerBlock * blocks));
    for (size_t i = 0; i < styles.size(); ++i) {
        result[i].style = styles[i];
        result[i].msPerStep = totalNs[i] * 1e-6 / stepCount;
        result[i].overheadPct = baselineNs > 0 ? (totalNs[i] / baselineNs - 1.0) * 100.0 : 0.0;
        result[i].syncsPerStep /= stepCount;
    }
    return result;
}

} // namespace synctax
