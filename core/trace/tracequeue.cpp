#include "core/trace/tracequeue.h"

#include <algorithm>
#include <map>
#include <utility>

namespace synctax {

std::vector<StreamQueue> streamQueues(const KinetoTrace& trace, const TraceJoin& join)
{
    // Per GPU lane: (time, change), +1 sorted before -1 at the same instant.
    std::map<std::uint32_t, std::vector<std::pair<std::int64_t, int>>> changes;
    for (std::int32_t l : join.launches) {
        const TraceEvent* gpu = join.gpuOf(trace, l);
        if (!gpu)
            continue;
        auto& lane = changes[gpu->lane];
        lane.emplace_back(trace.events[size_t(l)].startNs, +1);
        lane.emplace_back(gpu->startNs, -1);
    }
    std::vector<StreamQueue> queues;
    for (auto& [lane, list] : changes) {
        std::sort(list.begin(), list.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
        StreamQueue q;
        q.device = trace.lanes[lane].pid;
        q.stream = trace.lanes[lane].tid;
        int depth = 0;
        int lastDepth = 0;
        std::int64_t lastNs = list.front().first;
        double weighted = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            depth += list[i].second;
            const bool lastAtThisInstant = i + 1 == list.size() || list[i + 1].first != list[i].first;
            if (!lastAtThisInstant)
                continue;
            weighted += double(lastDepth) * double(list[i].first - lastNs);
            lastNs = list[i].first;
            lastDepth = depth;
            if (q.points.empty() || q.points.back().depth != depth)
                q.points.push_back({ list[i].first, depth });
            q.max = std::max(q.max, depth);
        }
        const std::int64_t span = lastNs - q.points.front().ns;
        q.mean = span > 0 ? weighted / double(span) : double(q.points.front().depth);
        queues.push_back(std::move(q));
    }
    return queues;
}

int queueMaxIn(const StreamQueue& queue, std::int64_t startNs, std::int64_t endNs)
{
    const auto& p = queue.points;
    auto it = std::upper_bound(
        p.begin(), p.end(), startNs, [](std::int64_t ns, const QueueDepthPoint& q) { return ns < q.ns; });
    int deepest = it == p.begin() ? 0 : std::prev(it)->depth;
    for (; it != p.end() && it->ns < endNs; ++it)
        deepest = std::max(deepest, it->depth);
    return deepest;
}

std::vector<LagPoint> launchLag(const KinetoTrace& trace, const TraceJoin& join)
{
    std::vector<LagPoint> lag;
    for (std::int32_t l : join.launches) {
        if (const TraceEvent* gpu = join.gpuOf(trace, l)) {
            const std::int64_t start = trace.events[size_t(l)].startNs;
            lag.push_back({ start, nsToMs(gpu->startNs - start) });
        }
    }
    return lag;
}

} // namespace synctax
