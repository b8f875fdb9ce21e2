#pragma once

#include <chrono>
#include <cstdint>

namespace synctax {

inline int64_t steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline double steadyNowS() { return double(steadyNowNs()) * 1e-9; }

// Keeps the CPU busy for `us` microseconds: host work that cannot overlap with dispatching.
inline void spinForUs(int64_t us)
{
    if (us <= 0)
        return;
    const int64_t until = steadyNowNs() + us * 1000;
    while (steadyNowNs() < until) { }
}

} // namespace synctax
