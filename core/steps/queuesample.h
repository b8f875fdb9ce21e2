#pragma once

#include <cstdint>
#include <vector>

namespace synctax {

// Per-step queue measures from host dispatch times and GPU completion times (both ns, one clock).
struct QueueSample {
    double lagMs = 0; // how far the host ran ahead: completion minus end of dispatch
    int queueSteps = 0; // steps dispatched but not complete when this one finished dispatching
};
std::vector<QueueSample> queueSamples(
    const std::vector<int64_t>& dispatchedNs, const std::vector<int64_t>& completedNs);

} // namespace synctax
