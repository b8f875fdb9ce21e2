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

// The label's band: the host (D + H) and the GPU (G) within this factor of each other are balanced.
// Without syncs the faster side idles 1 - 1/r of each step (r the slower over the faster): balanced
// is where neither idles more than half of it (docs/method.md has the measurements behind it).
inline constexpr double balancedBand = 2.0;

// gpu_bound when G >= balancedBand (D + H), dispatch_bound when D + H >= balancedBand G, balanced in
// between: the host and the GPU keep catching up with one another.
std::string classifyRegime(double dMs, double gMs, double hUs);

// The queue model's own tests of which side sets the pace, by a quarter (G >= 1.25 (D + H), and
// D + H >= 1.25 G): whether a baseline is the GPU's time, and whether a step's GPU waits on its host.
// Narrower than the label's band, and apart from it, so that the label's words move no prediction.
bool gpuSetsThePace(double dMs, double gMs, double hUs);
bool hostSetsThePace(double dMs, double gMs, double hUs);

} // namespace synctax
