#pragma once

#include <cstdint>
#include <string>

namespace synctax {

// The bounds of one value of a simulation file, named by its key there.
struct NumberBound {
    const char* key;
    double min;
    double max;
};
struct IntegerBound {
    const char* key;
    int64_t min;
    int64_t max;
};

// What a simulation file accepts; `synctax-run sweep` holds its options for the same quantities to
// the same bounds, so that a loop it cannot describe in a file it cannot sweep either.
namespace simulationBounds {
inline constexpr NumberBound dMs { "d_ms", 0.0, 1e6 };
inline constexpr NumberBound gMs { "g_ms", 0.0, 1e6 };
inline constexpr NumberBound hUs { "h_us", 0.0, 1e9 };
inline constexpr NumberBound lUs { "l_us", 0.0, 1e9 };
inline constexpr IntegerBound k { "k", 1, 1'000'000 };
inline constexpr IntegerBound queueCapacity { "queue_capacity", 1, 1'000'000 };
inline constexpr NumberBound jitter { "jitter", 0.0, 1.0 };
inline constexpr NumberBound formatUs { "format_us", 0.0, 1e9 };
inline constexpr NumberBound redrawUs { "redraw_us", 0.0, 1e9 };
inline constexpr NumberBound tailMs { "tail_ms", 0.0, 1e6 };
inline constexpr IntegerBound stepsPerBlock { "steps_per_block", 1, 100000 };
inline constexpr IntegerBound blocks { "blocks", 1, 10000 };
} // namespace simulationBounds

// What is wrong with `text` as a value within `bound`, in the words of a simulation file's error
// after its key ("-1 is out of range; expected 0 to 1e+06", "expected a number, found 'nan'");
// empty when the value is within the bound.
std::string outOfBound(const NumberBound& bound, const std::string& text);
std::string outOfBound(const IntegerBound& bound, const std::string& text);

} // namespace synctax
