#include "core/config/unsignedtext.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace synctax {

UnsignedRead readUnsigned(const std::string& text)
{
    const bool negative = !text.empty() && text[0] == '-';
    const std::string digits = text.substr(!text.empty() && (negative || text[0] == '+') ? 1 : 0);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return { std::nullopt, "expected an integer, found '" + text + "'" };
    errno = 0;
    const unsigned long long value = std::strtoull(digits.c_str(), nullptr, 10);
    const bool belowZero = negative && digits.find_first_not_of('0') != std::string::npos;
    if (belowZero || errno == ERANGE || value > std::numeric_limits<uint64_t>::max()) {
        return { std::nullopt,
            text + " is out of range; expected 0 to " + std::to_string(std::numeric_limits<uint64_t>::max()) };
    }
    return { uint64_t(value), "" };
}

} // namespace synctax
