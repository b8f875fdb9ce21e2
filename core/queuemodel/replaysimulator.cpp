#include "core/queuemodel/replaysimulator.h"

#include "core/queuemodel/replaystate.h"

#include <algorithm>

namespace synctax {

void replayLaunch(ReplayState& s, double hostUs, double gpuUs, size_t capacity, double idleStartUs)
{
    while (s.pending.size() >= capacity) {
        const double freed = std::max(s.host, s.pending.front());
        s.blocked += freed - s.host;
        s.host = freed;
        s.pending.pop_front();
    }
    s.host += hostUs;
    while (!s.pending.empty() && s.pending.front() <= s.host)
        s.pending.pop_front();
    s.gpuFree = std::max(s.gpuFree, s.host + idleStartUs) + gpuUs;
    s.gpuBusy += gpuUs;
    s.pending.push_back(s.gpuFree);
    s.maxPending = std::max<std::int64_t>(s.maxPending, std::int64_t(s.pending.size()));
}

void replaySync(ReplayState& s, double costUs)
{
    const double idle = std::max(s.host, s.gpuFree);
    s.syncWait += idle - s.host;
    s.host = idle + costUs;
    s.pending.clear();
}

void replayRecordedStep(
    ReplayState& s, const StepSequence& seq, double syncUs, size_t capacity, double hostBeforeSyncUs)
{
    double recorded = 0; // the recorded offset the host has reached: the end of the last call replayed
    const auto workUntil = [&](double offsetUs) {
        s.host += std::max(0.0, offsetUs - recorded);
        recorded = std::max(recorded, offsetUs);
    };
    const auto issue = [&](const LaunchOp& op) {
        workUntil(op.issueUs);
        replayLaunch(s, op.hostUs, op.gpuUs, capacity, seq.idleStartUs);
        recorded = std::max(recorded, op.issueUs + op.hostUs);
    };
    size_t next = 0;
    for (size_t i = 0; i < seq.syncAtUs.size(); ++i) {
        // A launch at the sync's own offset (the .item()'s copy) is issued before the sync waits.
        for (; next < seq.ops.size() && seq.ops[next].issueUs <= seq.syncAtUs[i]; ++next)
            issue(seq.ops[next]);
        workUntil(seq.syncAtUs[i]);
        if (i == 0)
            s.host += hostBeforeSyncUs;
        replaySync(s, syncUs);
        recorded = std::max(recorded, i < seq.syncEndUs.size() ? seq.syncEndUs[i] : seq.syncAtUs[i]);
    }
    for (; next < seq.ops.size(); ++next)
        issue(seq.ops[next]);
    if (seq.syncAtUs.empty())
        s.host += hostBeforeSyncUs;
    workUntil(seq.stepHostUs);
}

void replayHostAndStep(ReplayState& s, const StepSequence& seq, const ReplayOptions& options, size_t capacity)
{
    const double before = options.hostWorkBeforeSync ? options.hostWorkUs : 0;
    s.host += options.hostWorkUs - before;
    replayRecordedStep(s, seq, options.syncUs, capacity, before);
}

ReplayResult replaySteps(const StepSequence& sequence, const ReplayOptions& options)
{
    const size_t capacity = size_t(std::max<std::int64_t>(1, options.queueCapacity));
    const std::int64_t steps = std::max<std::int64_t>(2, options.steps);
    ReplayState s;
    replayHostAndStep(s, sequence, options, capacity);
    // A step is complete when the host is done with it and the GPU with its work.
    const double firstDone = std::max(s.host, s.gpuFree);
    const ReplayState afterFirst = s;
    for (std::int64_t step = 1; step < steps; ++step)
        replayHostAndStep(s, sequence, options, capacity);
    const double lastDone = std::max(s.host, s.gpuFree);

    // Every op of the steps after the first runs inside (firstDone, lastDone]: the first step's
    // ops have finished by firstDone, and the last step's by lastDone.
    const double n = double(steps - 1);
    const double windowUs = lastDone - firstDone;
    ReplayResult r;
    r.msPerStep = windowUs * 1e-3 / n;
    r.gpuIdleMsPerStep = (windowUs - (s.gpuBusy - afterFirst.gpuBusy)) * 1e-3 / n;
    r.syncWaitMsPerStep = (s.syncWait - afterFirst.syncWait) * 1e-3 / n;
    r.queueBlockedMsPerStep = (s.blocked - afterFirst.blocked) * 1e-3 / n;
    return r;
}

} // namespace synctax
