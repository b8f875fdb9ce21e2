#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace synctax {

// When each step's GPU work completed, on the host's clock, from CUDA events recorded in the
// stream as the host finishes dispatching each step. Nothing waits for the events during the
// block: they are read after its closing synchronize. The clocks are aligned by an anchor event
// recorded right after the block's opening synchronize, when the queue is empty.
class GpuTimeline {
public:
    // nullptr where there is no CUDA device (device "cpu", or Torch without CUDA).
    static std::unique_ptr<GpuTimeline> make(const std::string& device);
    virtual ~GpuTimeline() = default;

    virtual void beginBlock(int64_t steps) = 0; // after the opening synchronize
    virtual void markStep(int64_t step) = 0; // as the host finishes dispatching the step
    // After the closing synchronize: completion of each marked step, ns on the steady clock.
    virtual std::vector<int64_t> completionNs() = 0;
};

// Per-step queue measures from host dispatch times and GPU completion times (both ns, one clock).
struct QueueSample {
    double lagMs = 0; // how far the host ran ahead: completion minus end of dispatch
    int queueSteps = 0; // steps dispatched but not complete when this one finished dispatching
};
std::vector<QueueSample> queueSamples(
    const std::vector<int64_t>& dispatchedNs, const std::vector<int64_t>& completedNs);

} // namespace synctax
