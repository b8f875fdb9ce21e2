#pragma once

#include "core/config/boundedkey.h"

#include <cstdint>
#include <string>

namespace synctax {

// What a simulation file accepts; `synctax-run sweep` holds its options for the same quantities to
// the same bounds, so that a loop it cannot describe in a file it cannot sweep either.
namespace simulationBounds {
inline constexpr NumberKey dMs { "d_ms", 0.0, 1e6 };
inline constexpr NumberKey gMs { "g_ms", 0.0, 1e6 };
inline constexpr NumberKey hUs { "h_us", 0.0, 1e9 };
inline constexpr NumberKey lUs { "l_us", 0.0, 1e9 };
inline constexpr IntegerKey k { "k", 1, 1'000'000 };
inline constexpr IntegerKey queueCapacity { "queue_capacity", 1, 1'000'000 };
inline constexpr NumberKey jitter { "jitter", 0.0, 1.0 };
inline constexpr NumberKey formatUs { "format_us", 0.0, 1e9 };
inline constexpr NumberKey redrawUs { "redraw_us", 0.0, 1e9 };
inline constexpr NumberKey tailMs { "tail_ms", 0.0, 1e6 };
inline constexpr IntegerKey stepsPerBlock { "steps_per_block", 1, 100000 };
inline constexpr IntegerKey blocks { "blocks", 1, 10000 };
} // namespace simulationBounds

// What is wrong with `text` as a value within `bound`, in the words of a simulation file's error
// after its key ("-1 is out of range; expected 0 to 1e+06", "expected a number, found 'nan'");
// empty when the value is within the bound.
std::string outOfBound(const NumberKey& bound, const std::string& text);
std::string outOfBound(const IntegerKey& bound, const std::string& text);

} // namespace synctax
