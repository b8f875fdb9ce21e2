#include "core/trace/tracebubble.h"

#include "core/trace/tracesyncs.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace synctax {

namespace {

// One device's GPU ops in start order, with the latest end so far: "is it busy at t" in log time.
struct DeviceTimeline {
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> maxEndSoFar;

    void add(const TraceEvent& e)
    {
        starts.push_back(e.startNs);
        maxEndSoFar.push_back(maxEndSoFar.empty() ? e.endNs() : std::max(maxEndSoFar.back(), e.endNs()));
    }
    // The idle time from t to the next op's start; 0 when an op runs at t or none follows.
    std::int64_t idleAfter(std::int64_t t) const
    {
        const size_t started = size_t(std::upper_bound(starts.begin(), starts.end(), t) - starts.begin());
        if (started > 0 && maxEndSoFar[started - 1] > t)
            return 0;
        return started < starts.size() ? starts[started] - t : 0;
    }
};

} // namespace

void measureBubbles(const KinetoTrace& trace, const TraceJoin& join, std::vector<FoundSync>& syncs)
{
    std::map<std::int64_t, DeviceTimeline> devices;
    DeviceTimeline all;
    for (std::int32_t g : join.gpuWork) {
        const TraceEvent& e = trace.events[size_t(g)];
        devices[trace.lanes[e.lane].pid].add(e);
        all.add(e);
    }
    for (FoundSync& f : syncs) {
        const auto it = devices.find(f.device);
        const DeviceTimeline& timeline = it != devices.end() ? it->second : all;
        const std::int64_t idle = timeline.idleAfter(f.sync.endNs);
        f.sync.bubbleEndNs = f.sync.endNs + idle;
        f.sync.bubbleMs = nsToMs(idle);
    }
}

int countBubblesOnce(std::vector<FoundSync>& syncs, const std::vector<TraceStep>& steps)
{
    std::vector<size_t> order(syncs.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return std::make_pair(syncs[a].sync.endNs, syncs[a].sync.startNs)
            < std::make_pair(syncs[b].sync.endNs, syncs[b].sync.startNs);
    });
    std::vector<std::int64_t> leftNs(steps.size());
    for (size_t i = 0; i < steps.size(); ++i)
        leftNs[i] = std::max<std::int64_t>(0, steps[i].endNs - steps[i].startNs);
    std::int64_t countedUntil = std::numeric_limits<std::int64_t>::min();
    int cut = 0;
    for (const size_t i : order) {
        TraceSync& s = syncs[i].sync;
        const std::int64_t from = std::max(s.endNs, countedUntil);
        std::int64_t idle = std::max<std::int64_t>(0, s.bubbleEndNs - from);
        countedUntil = std::max(countedUntil, s.bubbleEndNs);
        if (idle == 0)
            s.bubbleEndNs = s.endNs;
        if (s.step >= 0 && size_t(s.step) < steps.size()) {
            std::int64_t& left = leftNs[size_t(s.step)];
            if (idle > left) {
                idle = left;
                ++cut;
            }
            left -= idle;
        }
        s.bubbleMs = nsToMs(idle);
    }
    return cut;
}

} // namespace synctax
