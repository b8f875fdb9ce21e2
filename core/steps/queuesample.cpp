#include "core/steps/queuesample.h"

#include <algorithm>

namespace synctax {

std::vector<QueueSample> queueSamples(const std::vector<int64_t>& dispatchedNs, const std::vector<int64_t>& completedNs)
{
    const size_t n = std::min(dispatchedNs.size(), completedNs.size());
    std::vector<QueueSample> samples(n);
    for (size_t i = 0; i < n; ++i) {
        samples[i].lagMs = std::max<double>(0.0, double(completedNs[i] - dispatchedNs[i]) * 1e-6);
        // Completion times are in order, so the steps still queued are a contiguous run ending at i.
        int queued = 0;
        for (size_t j = i + 1; j-- > 0 && completedNs[j] > dispatchedNs[i];)
            ++queued;
        samples[i].queueSteps = queued;
    }
    return samples;
}

} // namespace synctax
