#include "core/engine/gpu/gpuclocks.h"

#include <dlfcn.h>

#include <type_traits>
#include <utility>

namespace synctax {

namespace {

// The few NVML entry points used, declared here so that no NVML header is needed to build.
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn nvmlSuccess = 0;
constexpr int nvmlClockSm = 1;

} // namespace

struct GpuClocks::Api {
    void* library = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*byPciBusId)(const char*, NvmlDevice*) = nullptr;
    NvmlReturn (*clockInfo)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*defaultAppClock)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*maxClock)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*throttleReasons)(NvmlDevice, unsigned long long*) = nullptr;

    ~Api()
    {
        if (shutdown)
            shutdown();
        if (library)
            dlclose(library);
    }
};

std::unique_ptr<GpuClocks> GpuClocks::open(const std::string& pciBusId, std::string& why)
{
    auto api = std::make_unique<Api>();
    api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        why = "NVML (libnvidia-ml.so.1) is not available: clocks are not recorded";
        return nullptr;
    }
    const auto bind = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(api->library, name));
        return fn != nullptr;
    };
    bool ok = bind(api->init, "nvmlInit_v2") && bind(api->byPciBusId, "nvmlDeviceGetHandleByPciBusId_v2")
        && bind(api->clockInfo, "nvmlDeviceGetClockInfo") && bind(api->maxClock, "nvmlDeviceGetMaxClockInfo");
    bind(api->defaultAppClock, "nvmlDeviceGetDefaultApplicationsClock");
    if (!bind(api->throttleReasons, "nvmlDeviceGetCurrentClocksEventReasons"))
        bind(api->throttleReasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!ok) {
        why = "NVML lacks the clock functions: clocks are not recorded";
        return nullptr;
    }
    if (api->init() != nvmlSuccess) {
        why = "NVML did not initialise: clocks are not recorded";
        return nullptr;
    }
    bind(api->shutdown, "nvmlShutdown");
    std::unique_ptr<GpuClocks> clocks(new GpuClocks);
    if (api->byPciBusId(pciBusId.c_str(), &clocks->m_device) != nvmlSuccess) {
        why = "NVML does not know the device at PCI " + pciBusId + ": clocks are not recorded";
        return nullptr;
    }
    unsigned mhz = 0;
    if (api->defaultAppClock && api->defaultAppClock(clocks->m_device, nvmlClockSm, &mhz) == nvmlSuccess && mhz > 0)
        clocks->m_defaultSmMhz = mhz;
    else if (api->maxClock(clocks->m_device, nvmlClockSm, &mhz) == nvmlSuccess)
        clocks->m_defaultSmMhz = mhz;
    clocks->m_api = std::move(api);
    return clocks;
}

GpuClocks::~GpuClocks() = default;

ClockSample GpuClocks::sample() const
{
    ClockSample s;
    s.ok = m_api->clockInfo(m_device, nvmlClockSm, &s.smMhz) == nvmlSuccess;
    if (m_api->throttleReasons) {
        unsigned long long reasons = 0;
        if (m_api->throttleReasons(m_device, &reasons) == nvmlSuccess)
            s.throttleReasons = reasons;
    }
    return s;
}

} // namespace synctax
