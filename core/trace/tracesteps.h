#pragma once

#include "core/trace/kinetotrace.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracereport.h"

#include <vector>

namespace synctax {

// One window per ProfilerStep#N annotation, in start order; empty when the trace marks none.
std::vector<TraceStep> stepWindows(const KinetoTrace& trace);

// The whole trace as one window, for a trace recorded without a schedule.
TraceStep wholeTraceWindow(const KinetoTrace& trace);

// Per step: D and K from the launch calls that start in it, G as the union of GPU op intervals
// clipped to it, the deepest queue of any stream during it, and the lag at its last joined launch.
void measureSteps(const KinetoTrace& trace, const TraceJoin& join, const std::vector<StreamQueue>& queues,
    std::vector<TraceStep>& steps);

// HTA's idle time breakdown per step (hta/analyzers/breakdown_analysis.py,
// _analyze_idle_time_for_stream): per stream, the gap before each GPU op (its start minus the
// previous op's end on that stream) is host wait when its launch call started after the previous
// op ended, kernel wait when under consecutive_kernel_delay (HTA's default 30, which its docs call
// ns but it compares with µs timestamps: 30 µs), else other. Streams are summed, so with several
// streams the idle time can exceed the step. Unlike HTA (whose whole-trace numbers tracehta.h
// computes): times stay in ns, overlaps (negative gaps) are not summed, each gap counts where it
// falls inside the step, and a gap's launch is a launch call (tracejoin.h), not any runtime call.
void breakDownIdleTime(const KinetoTrace& trace, const TraceJoin& join, std::vector<TraceStep>& steps);

inline constexpr std::int64_t consecutiveKernelDelayNs = 30'000;

} // namespace synctax
