#include "core/trace/tracejoin.h"

#include <unordered_map>

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
    for (size_t i = 0; i < n; ++i) {
        const TraceEvent& e = trace.events[i];
        if (isGpuWork(e.kind)) {
            join.gpuWork.push_back(std::int32_t(i));
            if (e.correlation >= 0)
                firstGpu.emplace(e.correlation, std::int32_t(i));
        } else if (e.kind == TraceEventKind::Launch) {
            join.launches.push_back(std::int32_t(i));
            if (e.correlation >= 0)
                launchOf.emplace(e.correlation, std::int32_t(i));
        }
    }
    for (std::int32_t l : join.launches) {
        const auto it = firstGpu.find(trace.events[size_t(l)].correlation);
        if (it == firstGpu.end())
            ++join.launchesWithoutGpu;
        else
            join.gpuOfLaunch[size_t(l)] = it->second;
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
