#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/tracejoin.h"

#include <vector>

namespace synctax {

struct FoundSync;

// Each sync's bubble: from its return to the next GPU op's start on any stream of the device it
// waited for (every device when that is unknown), 0 when a GPU op was still running at its return
// or none follows. This is the overlap of host and GPU that the sync destroyed.
void measureBubbles(const KinetoTrace& trace, const TraceJoin& join, std::vector<FoundSync>& syncs);

} // namespace synctax
