#include "core/engine/gpu/gputimeline.h"

#include "core/engine/gpu/hostclock.h"

#include <algorithm>

#ifdef SYNCTAX_HAVE_CUDA
#include <c10/core/Device.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#endif

namespace synctax {

#ifdef SYNCTAX_HAVE_CUDA

namespace {

void check(cudaError_t status, const char* what)
{
    if (status != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

class CudaTimeline : public GpuTimeline {
public:
    explicit CudaTimeline(c10::DeviceIndex device)
        : m_device(device)
    {
    }

    ~CudaTimeline() override
    {
        for (cudaEvent_t e : m_events)
            cudaEventDestroy(e);
    }

    void beginBlock(int64_t steps) override
    {
        while (int64_t(m_events.size()) < steps + 1) {
            cudaEvent_t e = nullptr;
            check(cudaEventCreate(&e), "cudaEventCreate");
            m_events.push_back(e);
        }
        m_stream = c10::cuda::getCurrentCUDAStream(m_device).stream();
        m_marked = 0;
        check(cudaEventRecord(m_events[0], m_stream), "cudaEventRecord");
        m_anchorNs = steadyNowNs();
    }

    void markStep(int64_t step) override
    {
        if (step + 1 < int64_t(m_events.size())) {
            cudaEventRecord(m_events[size_t(step + 1)], m_stream);
            m_marked = step + 1;
        }
    }

    std::vector<int64_t> completionNs() override
    {
        std::vector<int64_t> done(size_t(m_marked), -1);
        for (int64_t i = 0; i < m_marked; ++i) {
            float ms = 0;
            if (cudaEventElapsedTime(&ms, m_events[0], m_events[size_t(i + 1)]) == cudaSuccess)
                done[size_t(i)] = m_anchorNs + int64_t(double(ms) * 1e6);
        }
        return done;
    }

private:
    c10::DeviceIndex m_device;
    cudaStream_t m_stream = nullptr;
    std::vector<cudaEvent_t> m_events;
    int64_t m_marked = 0;
    int64_t m_anchorNs = 0;
};

} // namespace

std::unique_ptr<GpuTimeline> GpuTimeline::make(const std::string& device)
{
    const c10::Device d(device);
    if (!d.is_cuda())
        return nullptr;
    return std::make_unique<CudaTimeline>(d.index());
}

#else

std::unique_ptr<GpuTimeline> GpuTimeline::make(const std::string&) { return nullptr; }

#endif

} // namespace synctax
