#include "core/engine/run/regimeprobe.h"

#include "core/engine/gpu/hostclock.h"
#include "core/engine/training/stepexecutor.h"
#include "core/statistics/statistics.h"

#include <torch/torch.h>

#include <algorithm>

#ifdef SYNCTAX_HAVE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/Sleep.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace synctax {

#ifdef SYNCTAX_HAVE_CUDA

namespace {

constexpr int64_t queueCapacity = 1021; // launches queued before cudaLaunchKernel blocks (H200)

// GPU clock cycles per millisecond, from a timed sleep kernel: the sleep that keeps the GPU busy
// must outlast the host's dispatching, whatever the clock.
double cyclesPerMs(c10::cuda::CUDAStream stream)
{
    at::cuda::CUDAEvent start(cudaEventDefault), end(cudaEventDefault);
    constexpr int64_t cycles = 10'000'000;
    start.record(stream);
    at::cuda::sleep(cycles);
    end.record(stream);
    end.synchronize();
    return double(cycles) / std::max(1e-3, double(start.elapsed_time(end)));
}

struct DispatchSample {
    double dMs;
    double gMs;
    bool gpuWaited; // the GPU finished its sleep before the host finished dispatching
};

// While a sleep kernel holds the GPU, the host queues n steps: the host time is pure dispatch (D),
// and the GPU then runs the steps back to back, so the events around them give G with no host gaps.
DispatchSample dispatchWhileBusy(StepExecutor& executor, int n, int64_t sleepCycles, c10::cuda::CUDAStream stream)
{
    at::cuda::CUDAEvent sleepDone(cudaEventDefault), stepsDone(cudaEventDefault);
    executor.synchronize();
    at::cuda::sleep(sleepCycles);
    sleepDone.record(stream);
    const int64_t t0 = steadyNowNs();
    for (int i = 0; i < n; ++i)
        executor.step();
    const int64_t t1 = steadyNowNs();
    stepsDone.record(stream);
    const bool stillSleeping = !sleepDone.query();
    executor.synchronize();
    return { double(t1 - t0) * 1e-6 / n, double(sleepDone.elapsed_time(stepsDone)) / n, !stillSleeping };
}

} // namespace

RegimeMeasurement measureRegime(StepExecutor& executor, int64_t hostWorkUs)
{
    RegimeMeasurement m;
    const torch::Device device = executor.state().device();
    if (!device.is_cuda()) {
        m.reason = noQueueOnCpu;
        return m;
    }
    m.available = true;
    m.hUs = double(hostWorkUs);
    const auto stream = c10::cuda::getCurrentCUDAStream(device.index());
    m.k = executor.launchesPerStep();

    // As many steps as the queue holds, at most 8; a step larger than the queue still gets one.
    const int64_t entries = executor.queueEntriesPerStep();
    const int64_t perStep = entries > 0 ? entries : queueCapacity;
    const int n = int(std::clamp<int64_t>((queueCapacity - 20) / perStep, 1, 8));
    m.queueLimited = perStep >= queueCapacity - 20;
    const double cycles = cyclesPerMs(stream);
    double sleepMs = 20;
    std::vector<double> d, g;
    for (int attempt = 0; attempt < 8 && d.size() < 3; ++attempt) {
        const DispatchSample s = dispatchWhileBusy(executor, n, int64_t(cycles * sleepMs), stream);
        // When the sleep ended before the dispatch did, try a longer one, unless the step alone
        // fills the queue: then the host waits for the GPU whatever the sleep, and D is an upper bound.
        if (s.gpuWaited && !m.queueLimited) {
            sleepMs *= 2;
            continue;
        }
        d.push_back(s.dMs);
        g.push_back(s.gMs);
    }
    if (d.empty()) {
        m.available = false;
        m.reason = "the GPU could not be kept busy long enough to time the host's dispatch";
        return m;
    }
    m.dMs = median(d);
    m.gMs = median(g);

    // L: the round trip of .item() when nothing is queued.
    const auto scalar = torch::ones({}, torch::TensorOptions().device(device));
    executor.synchronize();
    std::vector<double> trips;
    for (int i = 0; i < 50; ++i) {
        const int64_t t0 = steadyNowNs();
        scalar.item<float>();
        trips.push_back(double(steadyNowNs() - t0) * 1e-3);
    }
    m.lUs = median(trips);
    m.label = classifyRegime(m.dMs, m.gMs, m.hUs);
    return m;
}

#else

RegimeMeasurement measureRegime(StepExecutor&, int64_t)
{
    RegimeMeasurement m;
    m.reason = noQueueOnCpu;
    return m;
}

#endif

} // namespace synctax
