#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracereport.h"

#include <cstdint>
#include <vector>

namespace synctax {

// HTA's queue length per GPU stream (hta/analyzers/trace_counters.py,
// _get_queue_length_time_series_for_rank): +1 at a launch call's start, -1 at the start of the GPU
// op it queued (the first, for a graph launch). Launches at the same instant as a GPU op start are
// counted first, so the depth is never below 0 on a well-joined trace. Unlike HTA's own numbers
// (tracehta.h): ns times, graph launches counted, no step dropped, and a time-weighted mean.
std::vector<StreamQueue> streamQueues(const KinetoTrace& trace, const TraceJoin& join);

// The deepest queue of `queue` during [startNs, endNs): the depth carried in and every change inside.
int queueMaxIn(const StreamQueue& queue, std::int64_t startNs, std::int64_t endNs);

// Per joined launch, in start order: how far ahead of the GPU the host ran (GPU op start - call start).
std::vector<LagPoint> launchLag(const KinetoTrace& trace, const TraceJoin& join);

} // namespace synctax
