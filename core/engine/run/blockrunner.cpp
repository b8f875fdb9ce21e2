#include "core/engine/run/blockrunner.h"

#include "core/engine/gpu/hostclock.h"
#include "core/engine/gpu/synccounter.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/training/stepexecutor.h"
#include "core/steps/stepring.h"

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

constexpr int64_t tickIntervalNs = 1'000'000'000;

bool pastDeadline(int64_t nowNs, int64_t deadlineNs) { return deadlineNs > 0 && nowNs >= deadlineNs; }

} // namespace

BlockTiming runBlock(const BlockJob& job, StepRing* ring, int64_t runStartNs, const std::atomic<bool>& stop)
{
    const size_t capacity = size_t(job.steps);
    std::vector<int64_t> starts(capacity), dispatched(capacity), logged(capacity);
    job.executor.synchronize();
    if (job.timeline)
        job.timeline->beginBlock(job.steps);
    if (job.syncs)
        job.syncs->reset();
    job.style.beginBlock();
    int64_t done = 0;
    int64_t lastTickNs = steadyNowNs();
    while (done < job.steps) {
        const int64_t start = steadyNowNs();
        spinForUs(job.hostWorkUs);
        const StepOutput out = job.executor.step();
        if (job.timeline)
            job.timeline->markStep(done);
        const int64_t dispatchEnd = steadyNowNs();
        if (job.syncs)
            job.syncs->start();
        job.style.afterStep(out, done);
        if (job.syncs)
            job.syncs->stop();
        const size_t i = size_t(done);
        starts[i] = start;
        dispatched[i] = dispatchEnd;
        logged[i] = steadyNowNs();
        ++done;
        if (stop.load(std::memory_order_relaxed) || pastDeadline(logged[i], job.deadlineNs))
            break;
        // Once a second at most, and only in blocks that long: a few microseconds in a second.
        if (job.tick && logged[i] - lastTickNs >= tickIntervalNs) {
            job.tick();
            lastTickNs = steadyNowNs();
        }
    }
    if (job.syncs)
        job.syncs->start();
    job.style.endBlock();
    if (job.syncs)
        job.syncs->stop();
    job.executor.synchronize();
    const int64_t end = steadyNowNs();

    BlockTiming timing;
    const size_t n = size_t(done);
    starts.resize(n);
    dispatched.resize(n);
    logged.resize(n);
    std::vector<int64_t> completed;
    if (job.timeline) {
        completed = job.timeline->completionNs();
        timing.queue = queueSamples(dispatched, completed);
    }
    if (job.syncs)
        timing.syncs = job.syncs->count();
    if (job.takeWaitMs)
        timing.waitMs = job.takeWaitMs();
    if (ring) {
        for (size_t i = 0; i < n; ++i) {
            StepRecord record = job.tag;
            record.step = uint32_t(i);
            record.startNs = starts[i] - runStartNs;
            record.dispatchedNs = dispatched[i] - runStartNs;
            record.loggedNs = logged[i] - runStartNs;
            if (i < timing.queue.size() && completed[i] >= 0) {
                record.gpuDoneNs = completed[i] - runStartNs;
                record.lagMs = float(timing.queue[i].lagMs);
                record.queueSteps = timing.queue[i].queueSteps;
            }
            if (i < timing.waitMs.size())
                record.collectiveWaitMs = timing.waitMs[i];
            ring->push(record);
        }
    }
    timing.complete = done == job.steps;
    if (!timing.complete)
        return timing;
    timing.msPerStep = double(end - starts[0]) * 1e-6 / double(done);
    int64_t dispatchNs = 0;
    for (size_t i = 0; i < n; ++i)
        dispatchNs += dispatched[i] - starts[i];
    timing.dispatchMsPerStep = std::max(0.0, double(dispatchNs) * 1e-6 / double(done) - double(job.hostWorkUs) * 1e-3);
    if (n >= 2) {
        for (size_t i = 0; i < 2; ++i)
            timing.firstStepsDispatchMs[i]
                = std::max(0.0, double(dispatched[i] - starts[i]) * 1e-6 - double(job.hostWorkUs) * 1e-3);
    }
    timing.stepMs.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int64_t next = i + 1 < n ? starts[i + 1] : end;
        timing.stepMs[i] = double(next - starts[i]) * 1e-6;
    }
    return timing;
}

int64_t warmUp(StepExecutor& executor, int64_t minSteps, int64_t maxSteps, int64_t hostWorkUs,
    const std::atomic<bool>& stop, int64_t deadlineNs, const std::function<void()>& tick)
{
    constexpr int64_t chunk = 10;
    int64_t done = 0;
    double previous = -1;
    int64_t lastTickNs = steadyNowNs();
    while (done < maxSteps && !stop.load(std::memory_order_relaxed)) {
        const int64_t n = std::min(chunk, maxSteps - done);
        executor.synchronize();
        const int64_t t0 = steadyNowNs();
        int64_t ran = 0;
        // A chunk of steps sized for a GPU may take minutes on a CPU: a stop and the deadline hold
        // per step.
        bool late = false;
        while (ran < n && !late && !stop.load(std::memory_order_relaxed)) {
            spinForUs(hostWorkUs);
            executor.step();
            ++ran;
            const int64_t stepEndNs = steadyNowNs();
            late = pastDeadline(stepEndNs, deadlineNs);
            if (tick && stepEndNs - lastTickNs >= tickIntervalNs) {
                tick();
                lastTickNs = steadyNowNs();
            }
        }
        executor.synchronize();
        const int64_t nowNs = steadyNowNs();
        const double perStep = double(nowNs - t0) / double(ran);
        done += ran;
        if (late || pastDeadline(nowNs, deadlineNs))
            break;
        if (done >= minSteps && previous > 0 && std::abs(perStep - previous) <= 0.05 * previous)
            break;
        previous = perStep;
    }
    return done;
}

} // namespace synctax
