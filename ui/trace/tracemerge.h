#pragma once

#include "core/trace/tracereport.h"

#include <vector>

namespace synctax {

// The report of one rank whose trace came in several files (a watched folder: one file per
// profiler cycle): steps, syncs, queues and lag one after the other; each site's per-step numbers
// weighted by the steps of each file; the regime re-classified from the weighted D, G and H.
// A sync's hostLane still indexes its own file's lanes.
TraceReport mergeTraceReports(const std::vector<const TraceReport*>& parts);

} // namespace synctax
