#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// The logging styles a training loop can use, named as in configs and results.
struct StyleInfo {
    std::string name;
    std::string summary; // one line: what the style does per step
    int defaultN; // 0 when the style has no interval
};

const std::vector<StyleInfo>& styleCatalog();
std::optional<StyleInfo> findStyle(const std::string& name);
std::vector<std::string> styleNames();

// Whether the style makes the host wait for the GPU right after `step` (0-based within a block):
// every step for item, every n-th for the *_every_n styles, the block's last step for
// gpu_accumulate. The baseline's own end-of-block synchronize is not counted; deferred_async
// waits only when its ring of pending copies is full, which this cannot know.
bool syncsAfterStep(const struct StyleSpec& spec, int64_t step, int64_t stepsPerBlock);

// The baseline every overhead is measured against.
inline const char* baselineStyle() { return "none"; }

// The baseline's second copy in every round, compared with the first like any style: an A/A test
// whose interval is the noise floor. Added by the runner, never listed in configs.
inline const char* aaControlStyle() { return "aa_control"; }

// The baseline without per-step CUDA events, added with observer_control: its overhead against
// the baseline is (minus) the cost of the instrumentation itself.
inline const char* observerControlStyle() { return "none_no_events"; }

} // namespace synctax
