#pragma once

#include <cstdint>
#include <string>

namespace synctax {

// NVML's clocks-event reason bits in words: "sw_power_cap, hw_slowdown", or "none".
std::string describeThrottleReasons(uint64_t reasons);

} // namespace synctax
