#pragma once

#include "core/steps/queuesample.h"

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

} // namespace synctax
