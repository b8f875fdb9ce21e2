#pragma once

#include "core/trace/kinetotrace.h"

#include <cstdint>
#include <vector>

namespace synctax {

// Host launches joined to the GPU work they queued by args.correlation (not by flow events, which
// Kineto writes only for some launches). Indices are into KinetoTrace::events; -1 is none.
struct TraceJoin {
    std::vector<std::int32_t> gpuOfLaunch; // per event: a launch's first GPU op
    std::vector<std::int32_t> launchOfGpu; // per event: a GPU op's launch
    std::vector<std::int32_t> launches; // every Launch event, in start order
    std::vector<std::int32_t> gpuWork; // every GPU op (isGpuWork), in start order
    int launchesWithoutGpu = 0;
    int gpuWithoutLaunch = 0;
    // What cannot happen: a launch call whose correlation id another launch call already has (each
    // call gets its own), and a GPU op that starts before the launch call that queued it (among
    // launches whose id is their own), with how far before the furthest one starts.
    int launchesSharingCorrelation = 0;
    int gpuBeforeLaunch = 0;
    int joinedLaunches = 0;
    std::int64_t gpuBeforeLaunchMostNs = 0;

    const TraceEvent* gpuOf(const KinetoTrace& trace, std::int32_t launch) const
    {
        const std::int32_t g = gpuOfLaunch[size_t(launch)];
        return g < 0 ? nullptr : &trace.events[size_t(g)];
    }
};

TraceJoin joinLaunches(const KinetoTrace& trace);

} // namespace synctax
