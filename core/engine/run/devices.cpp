#include "core/engine/run/devices.h"

#include "synctax_version.h"

#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <fstream>
#include <thread>
#include <unistd.h>

#ifdef SYNCTAX_HAVE_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime_api.h>
#endif

namespace synctax {

namespace {

#ifdef SYNCTAX_HAVE_CUDA
constexpr bool torchHasCuda = true;
#else
constexpr bool torchHasCuda = false;
#endif

std::string cpuModel()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                return line.substr(line.find_first_not_of(' ', colon + 1));
        }
    }
    return "unknown";
}

std::string hostName()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0)
        return "unknown";
    return name;
}

} // namespace

bool cudaAvailable() { return torch::cuda::is_available(); }

std::string resolveDevice(const std::string& requested)
{
    if (requested == "cpu")
        return "cpu";
    if (requested == "auto")
        return cudaAvailable() ? "cuda:0" : "cpu";
    if (!cudaAvailable()) {
        throw DeviceError("device '" + requested + "' was asked for, but "
            + (torch::cuda::device_count() == 0 && torchHasCuda ? std::string("no CUDA device is visible")
                                                                : std::string("this Torch has no CUDA"))
            + "; use --device cpu or auto");
    }
    int64_t index = 0;
    if (requested.rfind("cuda:", 0) == 0)
        index = std::stoll(requested.substr(5));
    else if (requested != "cuda")
        throw DeviceError("unknown device '" + requested + "'; expected auto, cpu, cuda or cuda:N");
    const auto count = int64_t(torch::cuda::device_count());
    if (index >= count)
        throw DeviceError("device '" + requested + "' was asked for, but only " + std::to_string(count)
            + " CUDA device(s) are visible");
    return "cuda:" + std::to_string(index);
}

Environment describeEnvironment(const std::string& resolvedDevice)
{
    Environment env;
    env.synctaxVersion = SYNCTAX_VERSION;
    env.torchVersion = TORCH_VERSION;
    env.cudaBuild = torchHasCuda;
    env.device = resolvedDevice;
    env.cpu = cpuModel();
    env.host = hostName();
    env.cpuThreads = int(std::thread::hardware_concurrency());
    env.deviceName = env.cpu;
#ifdef SYNCTAX_HAVE_CUDA
    const torch::Device device(resolvedDevice);
    if (device.is_cuda()) {
        env.deviceName = at::cuda::getDeviceProperties(device.index())->name;
        char busId[32] = {};
        if (cudaDeviceGetPCIBusId(busId, sizeof busId, device.index()) == cudaSuccess)
            env.pciBusId = busId;
        int driver = 0;
        if (cudaDriverGetVersion(&driver) == cudaSuccess)
            env.driverVersion = "CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
    }
#endif
    return env;
}

} // namespace synctax
