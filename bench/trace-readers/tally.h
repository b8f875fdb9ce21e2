#pragma once

// What every reader does per event, so that the three do the same work: count the events of
// traceEvents and read ph, cat, name as text and ts, dur as decimal text into int64 ns.

#include <cstdint>
#include <cstdio>
#include <string_view>

namespace tracebench {

struct Tally {
    std::uint64_t events = 0;
    std::uint64_t textBytes = 0; // bytes of ph + cat + name, a check that they were read
    std::uint64_t tsSum = 0; // wrapping sums of ts and dur in ns, a check that every reader agrees
    std::uint64_t durSum = 0;
    std::uint64_t badNumbers = 0;

    void print(std::FILE* out) const
    {
        std::fprintf(out, "events %llu textBytes %llu tsSum %llu durSum %llu badNumbers %llu\n",
            (unsigned long long)events, (unsigned long long)textBytes, (unsigned long long)tsSum,
            (unsigned long long)durSum, (unsigned long long)badNumbers);
    }
};

// "5269695558079.884" (µs) -> 5269695558079884 ns, exactly: digits past the third decimal are
// dropped, an exponent is refused (Kineto never writes one).
inline bool microsTextToNs(std::string_view text, std::int64_t& ns)
{
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && text[i] == '-') {
        negative = true;
        ++i;
    }
    std::int64_t whole = 0;
    std::size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits)
        whole = whole * 10 + (text[i] - '0');
    if (digits == 0)
        return false;
    std::int64_t frac = 0;
    int fracDigits = 0;
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            if (fracDigits < 3) {
                frac = frac * 10 + (text[i] - '0');
                ++fracDigits;
            }
    }
    // simdjson's raw token keeps the whitespace that follows the number
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        ++i;
    if (i != text.size())
        return false;
    for (; fracDigits < 3; ++fracDigits)
        frac *= 10;
    ns = whole * 1000 + frac;
    if (negative)
        ns = -ns;
    return true;
}

inline void addNumber(std::uint64_t& sum, std::uint64_t& bad, std::string_view text)
{
    std::int64_t ns = 0;
    if (microsTextToNs(text, ns))
        sum += static_cast<std::uint64_t>(ns);
    else
        ++bad;
}

} // namespace tracebench
