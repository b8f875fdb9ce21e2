#include "core/trace/tracenumber.h"

#include <limits>

namespace synctax {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// An exponent beyond this scales any nonzero digit out of int64 (or below 1), so larger ones are
// clamped rather than overflowing int.
constexpr int kExponentClamp = 100000;

} // namespace

DecimalStatus parseScaledDecimal(std::string_view text, int scale, bool exact, std::int64_t& out)
{
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative)
        ++i;
    if (i == text.size() || !isDigit(text[i]))
        return (i == text.size() || text[i] == 'N' || text[i] == 'I') ? DecimalStatus::NotFinite
                                                                      : DecimalStatus::Invalid;

    // The significand's digits without the point: [digitsBegin, intEnd) then (intEnd, digitsEnd).
    const std::size_t digitsBegin = i;
    while (i < text.size() && isDigit(text[i]))
        ++i;
    const std::size_t intEnd = i;
    std::size_t fractionDigits = 0;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && isDigit(text[i])) {
            ++i;
            ++fractionDigits;
        }
        if (fractionDigits == 0)
            return DecimalStatus::Invalid;
    }
    const std::size_t digitsEnd = i;
    long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            expNegative = text[i++] == '-';
        if (i == text.size() || !isDigit(text[i]))
            return DecimalStatus::Invalid;
        for (; i < text.size() && isDigit(text[i]); ++i)
            exponent = exponent < kExponentClamp ? exponent * 10 + (text[i] - '0') : kExponentClamp;
        if (expNegative)
            exponent = -exponent;
    }
    if (i != text.size())
        return DecimalStatus::Invalid;

    // value = significand * 10^shift
    const long shift = exponent - static_cast<long>(fractionDigits) + scale;
    const std::size_t significandDigits = (intEnd - digitsBegin) + fractionDigits;
    const std::size_t dropped = shift < 0 ? static_cast<std::size_t>(-shift) : 0;
    const std::size_t kept = dropped >= significandDigits ? 0 : significandDigits - dropped;

    constexpr std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::uint64_t magnitude = 0;
    bool droppedNonZero = false;
    std::size_t seen = 0;
    for (std::size_t p = digitsBegin; p < digitsEnd; ++p) {
        if (p == intEnd)
            continue; // the point
        const unsigned digit = static_cast<unsigned>(text[p] - '0');
        if (seen++ < kept) {
            if (magnitude > (limit - digit) / 10)
                return DecimalStatus::TooLarge;
            magnitude = magnitude * 10 + digit;
        } else if (digit != 0) {
            droppedNonZero = true;
        }
    }
    if (exact && droppedNonZero)
        return DecimalStatus::NotInteger;
    for (long s = 0; s < shift && magnitude != 0; ++s) {
        if (magnitude > limit / 10)
            return DecimalStatus::TooLarge;
        magnitude *= 10;
    }
    out = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
    return DecimalStatus::Ok;
}

} // namespace synctax
