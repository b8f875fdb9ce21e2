#include "core/trace/tracejoin.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace synctax {

TraceJoin joinLaunches(const KinetoTrace& trace)
{
    TraceJoin join;
    const size_t n = trace.events.size();
    join.gpuOfLaunch.assign(n, -1);
    join.launchOfGpu.assign(n, -1);
    // A cudaGraphLaunch queues many GPU ops under one correlation: the launch is joined to the
    // earliest (events are in start order), and every one of them to the launch.
    std::unordered_map<std::int64_t, std::int32_t> firstGpu;
    std::unordered_map<std::int64_t, std::int32_t> launchOf;
    std::unordered_set<std::int64_t> shared;
    for (size_t i = 0; i < n; ++i) {
        const TraceEvent& e = trace.events[i];
        if (isGpuWork(e.kind)) {
            join.gpuWork.push_back(std::int32_t(i));
            if (e.correlation >= 0)
                firstGpu.emplace(e.correlation, std::int32_t(i));
        } else if (e.kind == TraceEventKind::Launch) {
            join.launches.push_back(std::int32_t(i));
            if (e.correlation >= 0 && !launchOf.emplace(e.correlation, std::int32_t(i)).second) {
                ++join.launchesSharingCorrelation;
                shared.insert(e.correlation);
            }
        }
    }
    for (std::int32_t l : join.launches) {
        const TraceEvent& launch = trace.events[size_t(l)];
        const auto it = firstGpu.find(launch.correlation);
        if (it == firstGpu.end()) {
            ++join.launchesWithoutGpu;
            continue;
        }
        join.gpuOfLaunch[size_t(l)] = it->second;
        if (shared.count(launch.correlation) > 0)
            continue; // joined by an id that tells nothing: not a time to check
        ++join.joinedLaunches;
        const std::int64_t early = launch.startNs - trace.events[size_t(it->second)].startNs;
        if (early > 0) {
            ++join.gpuBeforeLaunch;
            join.gpuBeforeLaunchMostNs = std::max(join.gpuBeforeLaunchMostNs, early);
        }
    }
    for (std::int32_t g : join.gpuWork) {
        const auto it = launchOf.find(trace.events[size_t(g)].correlation);
        if (it == launchOf.end())
            ++join.gpuWithoutLaunch;
        else
            join.launchOfGpu[size_t(g)] = it->second;
    }
    return join;
}

} // namespace synctax
