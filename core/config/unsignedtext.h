#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace synctax {

struct UnsignedRead {
    std::optional<uint64_t> value;
    std::string problem; // when there is no value: "-1 is out of range; expected 0 to 18446744073709551615"
};

// `text` as a decimal integer from 0 to 2^64 - 1 (a seed), read the same way from a config and from
// the command line: a negative number is refused as out of range, never wrapped around to 2^64 - 1.
UnsignedRead readUnsigned(const std::string& text);

} // namespace synctax
