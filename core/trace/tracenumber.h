#pragma once

#include <cstdint>
#include <string_view>

namespace synctax {

enum class DecimalStatus : std::uint8_t {
    Ok,
    NotFinite, // NaN or Infinity (RapidJSON hands these over as text without digits)
    TooLarge, // does not fit in int64 after scaling
    NotInteger, // a fraction left after scaling where an exact integer was asked for
    Invalid, // not JSON number text at all
};

// JSON number text times 10^scale, exactly (no double): "5269671049862.987" with scale 3 is
// 5269671049862987. Digits below the scaled unit are cut off toward zero (a Kineto timestamp in µs
// with more than 3 fraction digits keeps its ns); `exact` asks instead for NotInteger then.
DecimalStatus parseScaledDecimal(std::string_view text, int scale, bool exact, std::int64_t& out);

// Kineto's ts and dur: microseconds as text to nanoseconds.
inline DecimalStatus microsToNs(std::string_view text, std::int64_t& ns)
{
    return parseScaledDecimal(text, 3, false, ns);
}

// An id, a version, a count or baseTimeNanoseconds: an integer ("7" or "7.0").
inline DecimalStatus exactInteger(std::string_view text, std::int64_t& value)
{
    return parseScaledDecimal(text, 0, true, value);
}

} // namespace synctax
