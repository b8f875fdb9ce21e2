#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace synctax {

struct ClockSample {
    bool ok = false; // NVML answered
    unsigned smMhz = 0;
    uint64_t throttleReasons = 0; // NVML's clocks-event reason bits
};

// Reads the GPU's SM clock and throttle reasons through NVML, loaded at run time so that the
// program builds and runs where there is no NVML (it then says why, once).
class GpuClocks {
public:
    // pciBusId as CUDA reports it ("0000:0A:00.0"). Returns nullptr and sets `why` when NVML or
    // the device is not there.
    static std::unique_ptr<GpuClocks> open(const std::string& pciBusId, std::string& why);
    ~GpuClocks();
    GpuClocks(const GpuClocks&) = delete;
    GpuClocks& operator=(const GpuClocks&) = delete;

    ClockSample sample() const;
    unsigned defaultSmMhz() const { return m_defaultSmMhz; } // application default, else the maximum

private:
    GpuClocks() = default;
    struct Api;
    std::unique_ptr<Api> m_api;
    void* m_device = nullptr;
    unsigned m_defaultSmMhz = 0;
};

} // namespace synctax
