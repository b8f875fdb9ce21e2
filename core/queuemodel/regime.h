#pragma once

#include <cstdint>
#include <string>

namespace synctax {

// The quantities of docs/method.md's regimes for one model and mode, measured once per run.
// RegimeMeasurement::reason on a CPU, where ops run as they are called and there is no queue.
inline constexpr const char* noQueueOnCpu = "no asynchronous queue on CPU";

struct RegimeMeasurement {
    bool available = false;
    std::string reason; // why not, when not available
    double dMs = 0; // host time to dispatch one step, measured while the GPU is kept busy
    double gMs = 0; // GPU time of one step with the queue kept full (no host gaps)
    double lUs = 0; // .item() round trip on an idle stream
    int64_t k = -1; // launches per step; -1 when it could not be counted
    double hUs = 0; // configured host work per step
    bool queueLimited = false; // one step alone fills the launch queue: D includes waiting for it
    std::string label; // dispatch_bound, gpu_bound or balanced
};

// gpu_bound when G >= 1.25 (D + H), dispatch_bound when D + H >= 1.25 G, balanced in between:
// within 25% of each other the host and the GPU keep catching up with one another.
std::string classifyRegime(double dMs, double gMs, double hUs);

} // namespace synctax
