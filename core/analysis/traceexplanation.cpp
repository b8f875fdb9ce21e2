#include "core/analysis/traceexplanation.h"

#include "core/analysis/explanation.h"
#include "core/analysis/format.h"

namespace synctax {

std::string explainTraceRegime(const TraceRegime& r, double taxPct)
{
    const std::string host = formatMs(r.dMs + r.hMs);
    const std::string gpu = formatMs(r.gMs);
    const std::string tax = formatNumber(taxPct >= 100 ? "%.0f" : "%.1f", taxPct) + "%";
    if (r.label == "gpu_bound") {
        return "GPU-bound: the GPU is busy " + gpu + " ms per step and the host needs only " + host
            + " ms, so the host runs ahead; a sync makes it wait for the queue to drain and the GPU then idles "
              "while the host queues the next work: here the bubbles cost "
            + tax + " of the step time.";
    }
    if (r.label == "dispatch_bound") {
        return "Dispatch-bound: the host needs " + host + " ms per step for " + gpu
            + " ms of GPU work, so the GPU waits on the host anyway; a sync adds its round trip and the wait for "
              "the last queued work, which the host would otherwise overlap with dispatching: "
            + tax + " of the step time here.";
    }
    return "Balanced: the host (" + host + " ms per step) and the GPU (" + gpu
        + " ms) are within 25% of each other and keep each other busy only while they overlap; a sync breaks "
          "that overlap, so its bubble shows almost fully in the step time: "
        + tax + " here.";
}

} // namespace synctax
