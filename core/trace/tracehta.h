#pragma once

#include "core/trace/kinetotrace.h"

#include <cstdint>
#include <vector>

namespace synctax {

// Holistic Trace Analysis's own numbers, computed the way HTA computes them (commit f4d0062), so that
// SyncTax can be checked against HTA and say where its own measures differ. HTA works on:
// - times in whole µs: each ts parsed to a double, rounded up, and ts + dur rounded down
//   (hta/common/trace_parser.py, round_down_time_stamps; only when some ts has a fraction);
// - with two or more ProfilerStep#N names, only the host events that start before the last step
//   (its user_annotation or gpu_user_annotation, whichever starts later) and the GPU ops whose
//   correlation is among theirs (hta/common/trace.py, _filter_irrelevant_gpu_kernels);
// - rows in traceEvents order, sorted by ts with numpy's unstable quicksort.
// SyncTax's own queue depth and idle breakdown (tracequeue.h, tracesteps.h) keep ns and every step.

// An event's times as HTA holds them, in µs relative to no origin (HTA's own origin shift does not
// change any difference).
struct HtaTimes {
    double startUs = 0;
    double endUs = 0;
};

// HTA's queue length summary per CUDA stream (get_queue_length_summary): the time series has a point
// per launch call (+1: cudaLaunchKernel, cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx,
// cudaMemcpyAsync, cudaMemsetAsync, with a GPU op of the same correlation) and per GPU op (-1) they
// queued, in the order above; count, mean and max are over its points (not weighted by time).
struct HtaQueueSummary {
    std::int64_t stream = 0;
    int count = 0;
    double mean = 0;
    int max = 0;
};
std::vector<HtaQueueSummary> htaQueueLengthSummary(const KinetoTrace& trace);

// HTA's idle time breakdown per stream (get_idle_time_breakdown, _analyze_idle_time_for_stream):
// kernels, copies and memsets in ts order; each one's gap (its start minus the previous op's end,
// negative for an overlap, summed as it is) is host wait when its launching call started after the
// previous op ended, kernel wait when under consecutive_kernel_delay (30 in HTA's unit, µs), else other.
struct HtaIdleBreakdown {
    std::int64_t stream = 0;
    double hostWaitUs = 0;
    double kernelWaitUs = 0;
    double otherUs = 0;
};
inline constexpr double htaConsecutiveKernelDelayUs = 30;
std::vector<HtaIdleBreakdown> htaIdleTimeBreakdown(const KinetoTrace& trace);

// HTA's launch delay per launch (get_cuda_kernel_launch_stats): GPU op start minus the end of the
// cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync or cudaMemsetAsync call, 0 when negative, µs.
std::vector<double> htaLaunchDelaysUs(const KinetoTrace& trace);

} // namespace synctax
