#pragma once

#include "core/config/experimentconfig.h"
#include "core/steps/steprecord.h"

#include <cstdint>
#include <vector>

namespace synctax {

// One training loop as the queue model sees it (the quantities of core/queuemodel/regime.h, see
// ../shared/MEASURING.md), plus what the model needs to run it.
struct QueueModel {
    double dMs = 0.1; // host time to dispatch one step's K launches, spread evenly over them
    double gMs = 1; // GPU time of one step, split evenly over its K launches unless tailMs says otherwise
    // GPU time of the step's last launch, taken out of the others: real kernels are not spread
    // evenly, and what is still queued when the host has dispatched a step is what a sync waits for.
    double tailMs = 0;
    double hUs = 0; // other host work per step, before the step's launches
    double lUs = 8; // round trip of one sync once the GPU is idle
    int64_t k = 20; // launches per step
    int64_t queueCapacity = 1021; // launches queued before a launch blocks the host (H200)
    double jitter = 0; // each launch's GPU time is scaled by a uniform factor in [1 - jitter, 1 + jitter]
    double formatUs = 3; // host time of updating a progress bar that redraws at most every 0.1 s
    double redrawUs = 30; // host time of a forced redraw or a printed line (postfix, print, writer)
    double extraLaunchUs = 2; // GPU time of each small launch a style adds (an add, a copy, a metric)
    uint64_t seed = 1; // of the jitter: the same seed gives the same records
};

struct SimulatedBlock {
    int64_t durationNs = 0; // first step's start to the end of the closing synchronize
    double msPerStep = 0;
    int64_t maxQueueLaunches = 0; // the most launches queued and not complete, at any launch
    int64_t syncs = 0; // round trips the style paid, the closing synchronize not counted
};

// A discrete-event simulation of the host thread, the launch queue and the GPU. The host does H,
// then dispatches the step's launches at D/K each, blocking while Q launches are pending; the GPU
// runs launches in order as soon as they are queued and it is free; a sync waits until the GPU
// has finished everything queued and then pays L. No wall clock: the same model gives the same
// records. The simulated clock runs on across blocks, as a real run's does.
class Simulator {
public:
    explicit Simulator(QueueModel model);

    const QueueModel& model() const { return m_model; }
    int64_t nowNs() const;

    // One block of `steps` steps of a style, starting with an idle GPU (every block ends with a
    // synchronize), as core/engine/run/blockrunner.cpp runs it. Appends one record per step, tagged like
    // `tag` (runId, cell, round), to `records` when given. The jitter depends on the seed, the
    // round and the step only, so all styles of a round see the same GPU times (paired blocks).
    SimulatedBlock runBlock(
        const StyleSpec& style, int64_t steps, const StepRecord& tag, std::vector<StepRecord>* records = nullptr);

private:
    QueueModel m_model;
    double m_nowNs = 0;
};

struct StyleSimulation {
    StyleSpec style;
    double msPerStep = 0; // over all blocks
    double overheadPct = 0; // against the baseline ("none") over the same rounds
    int64_t maxQueueLaunches = 0;
    double syncsPerStep = 0;
};

// `blocks` rounds in which every style runs one block, in the listed order (a simulated host does
// not drift, so the order does not matter). The baseline is simulated for the overheads even when
// `styles` lacks it. When `records` is given, style i's steps are tagged cell firstCell + i.
std::vector<StyleSimulation> simulateStyles(const QueueModel& model, const std::vector<StyleSpec>& styles,
    int64_t stepsPerBlock, int64_t blocks, std::vector<StepRecord>* records = nullptr, uint32_t firstCell = 0);

} // namespace synctax
