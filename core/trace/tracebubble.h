#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracereport.h"

#include <vector>

namespace synctax {

struct FoundSync;

// Each sync's bubble: from its return to the next GPU op's start on any stream of the device it
// waited for (every device when that is unknown), 0 when a GPU op was still running at its return
// or none follows. This is the overlap of host and GPU that the sync destroyed.
void measureBubbles(const KinetoTrace& trace, const TraceJoin& join, std::vector<FoundSync>& syncs);

// Each measured bubble counted once and within its step, once the syncs are placed in their steps
// (TraceSync::step): taken in the order they return, an idle interval goes to the first sync that
// it follows and no later one, and a step's syncs together hold at most the step's time (a bubble
// across a gap in the recording would otherwise be many steps long). Returns how many bubbles were
// cut to what was left of their step.
int countBubblesOnce(std::vector<FoundSync>& syncs, const std::vector<TraceStep>& steps);

} // namespace synctax
