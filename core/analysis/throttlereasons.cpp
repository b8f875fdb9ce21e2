#include "core/analysis/throttlereasons.h"

#include <utility>

namespace synctax {

namespace {

const std::pair<uint64_t, const char*> reasonNames[] = {
    { 0x1, "gpu_idle" },
    { 0x2, "applications_clocks_setting" },
    { 0x4, "sw_power_cap" },
    { 0x8, "hw_slowdown" },
    { 0x10, "sync_boost" },
    { 0x20, "sw_thermal_slowdown" },
    { 0x40, "hw_thermal_slowdown" },
    { 0x80, "hw_power_brake_slowdown" },
    { 0x100, "display_clock_setting" },
};

} // namespace

std::string describeThrottleReasons(uint64_t reasons)
{
    std::string text;
    for (const auto& [bit, name] : reasonNames) {
        if (reasons & bit)
            text += (text.empty() ? "" : ", ") + std::string(name);
    }
    return text.empty() ? "none" : text;
}

} // namespace synctax
