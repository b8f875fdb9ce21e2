#include "core/trace/tracesteps.h"

#include "core/trace/tracequeue.h"

#include <algorithm>
#include <limits>
#include <map>

namespace synctax {

namespace {

std::int64_t overlap(std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1)
{
    return std::max<std::int64_t>(0, std::min(a1, b1) - std::max(a0, b0));
}

// The union of every GPU op's interval, as disjoint intervals in time order.
std::vector<std::pair<std::int64_t, std::int64_t>> gpuBusyUnion(const KinetoTrace& trace, const TraceJoin& join)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    for (std::int32_t g : join.gpuWork) {
        const TraceEvent& e = trace.events[size_t(g)];
        if (!merged.empty() && e.startNs <= merged.back().second)
            merged.back().second = std::max(merged.back().second, e.endNs());
        else
            merged.emplace_back(e.startNs, e.endNs());
    }
    return merged;
}

} // namespace

std::vector<TraceStep> stepWindows(const KinetoTrace& trace)
{
    std::vector<TraceStep> steps;
    for (const auto& e : trace.events) {
        if (e.kind != TraceEventKind::Step)
            continue;
        TraceStep s;
        s.name = trace.names[e.name];
        s.startNs = e.startNs;
        s.endNs = e.endNs();
        s.stepMs = nsToMs(e.durationNs);
        steps.push_back(s);
    }
    return steps;
}

TraceStep wholeTraceWindow(const KinetoTrace& trace)
{
    TraceStep s;
    s.name = "whole trace";
    if (!trace.events.empty()) {
        s.startNs = trace.events.front().startNs;
        s.endNs = std::numeric_limits<std::int64_t>::min();
        for (const auto& e : trace.events)
            s.endNs = std::max(s.endNs, e.endNs());
    }
    s.stepMs = nsToMs(s.endNs - s.startNs);
    return s;
}

void measureSteps(const KinetoTrace& trace, const TraceJoin& join, const std::vector<StreamQueue>& queues,
    std::vector<TraceStep>& steps)
{
    const auto busy = gpuBusyUnion(trace, join);
    for (TraceStep& s : steps) {
        std::int64_t dispatchNs = 0;
        std::int32_t lastJoined = -1;
        const auto first = std::lower_bound(join.launches.begin(), join.launches.end(), s.startNs,
            [&](std::int32_t l, std::int64_t ns) { return trace.events[size_t(l)].startNs < ns; });
        for (auto it = first; it != join.launches.end() && trace.events[size_t(*it)].startNs < s.endNs; ++it) {
            dispatchNs += trace.events[size_t(*it)].durationNs;
            ++s.launches;
            if (join.gpuOfLaunch[size_t(*it)] >= 0)
                lastJoined = *it;
        }
        s.dispatchMs = nsToMs(dispatchNs);
        std::int64_t busyNs = 0;
        // The union's intervals are disjoint and in order: the first that ends after the step starts.
        auto b = std::upper_bound(busy.begin(), busy.end(), s.startNs,
            [](std::int64_t ns, const std::pair<std::int64_t, std::int64_t>& i) { return ns < i.second; });
        for (; b != busy.end() && b->first < s.endNs; ++b)
            busyNs += overlap(b->first, b->second, s.startNs, s.endNs);
        s.gpuBusyMs = nsToMs(busyNs);
        for (const StreamQueue& q : queues)
            s.queueMax = std::max(s.queueMax, queueMaxIn(q, s.startNs, s.endNs));
        // The lag at the step's last launch: how much GPU work the host had queued ahead of itself
        // when it finished dispatching the step.
        if (lastJoined >= 0)
            s.lagMs = nsToMs(join.gpuOf(trace, lastJoined)->startNs - trace.events[size_t(lastJoined)].startNs);
    }
}

void breakDownIdleTime(const KinetoTrace& trace, const TraceJoin& join, std::vector<TraceStep>& steps)
{
    std::map<std::uint32_t, std::int32_t> previousOnLane;
    for (std::int32_t g : join.gpuWork) {
        const TraceEvent& e = trace.events[size_t(g)];
        const auto prev = previousOnLane.find(e.lane);
        if (prev == previousOnLane.end()) {
            previousOnLane.emplace(e.lane, g);
            continue;
        }
        const std::int64_t prevEnd = trace.events[size_t(prev->second)].endNs();
        prev->second = g;
        const std::int64_t gap = e.startNs - prevEnd;
        if (gap <= 0)
            continue;
        const std::int32_t launch = join.launchOfGpu[size_t(g)];
        const bool hostWait = launch >= 0 && trace.events[size_t(launch)].startNs > prevEnd;
        // Steps are in start order and do not overlap: only those from the gap's start on can hold it.
        auto s = std::upper_bound(steps.begin(), steps.end(), prevEnd,
            [](std::int64_t ns, const TraceStep& step) { return ns < step.endNs; });
        for (; s != steps.end() && s->startNs < e.startNs; ++s) {
            const double inside = nsToMs(overlap(prevEnd, e.startNs, s->startNs, s->endNs));
            if (inside <= 0)
                continue;
            if (hostWait)
                s->idleHostWaitMs += inside;
            else if (gap < consecutiveKernelDelayNs)
                s->idleKernelWaitMs += inside;
            else
                s->idleOtherMs += inside;
        }
    }
}

} // namespace synctax
