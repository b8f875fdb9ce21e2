#pragma once

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

// The baseline every overhead is measured against.
inline const char* baselineStyle() { return "none"; }

// The baseline's second copy in every round, compared with the first like any style: an A/A test
// whose interval is the noise floor. Added by the runner, never listed in configs.
inline const char* aaControlStyle() { return "aa_control"; }

// The baseline without per-step CUDA events, added with observer_control: its overhead against
// the baseline is (minus) the cost of the instrumentation itself.
inline const char* observerControlStyle() { return "none_no_events"; }

} // namespace synctax
