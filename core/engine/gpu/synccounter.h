#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace synctax {

// Counts the synchronizing CUDA calls (item(), copies to the host, stream syncs) made between
// start() and stop(), through c10's sync debug hook: each such call raises a warning, which a
// handler installed here counts instead of printing. Raising a warning costs host time, so this
// runs only in unmeasured blocks. torch::cuda::synchronize() does not pass through the hook.
class SyncCounter {
public:
    // nullptr where there is no CUDA device.
    static std::unique_ptr<SyncCounter> make(const std::string& device);
    virtual ~SyncCounter() = default;

    virtual void start() = 0;
    virtual void stop() = 0;
    virtual int64_t count() const = 0;
    virtual void reset() = 0;
};

} // namespace synctax
