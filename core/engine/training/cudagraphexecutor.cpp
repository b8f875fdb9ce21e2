#include "core/engine/training/cudagraphexecutor.h"

#include <torch/torch.h>

#include <stdexcept>

#ifdef SYNCTAX_HAVE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/version.h>

#include <cuda_runtime_api.h>
#endif

namespace synctax {

#ifdef SYNCTAX_HAVE_CUDA

namespace {

// LibTorch 2.8 and later can keep the captured graph (keep_graph) and hand it out.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 8)
#define SYNCTAX_GRAPH_IS_KEPT 1
#endif

// The graph's nodes: kernels, copies and memsets, each one launch when run eagerly.
int64_t countNodes([[maybe_unused]] at::cuda::CUDAGraph& graph)
{
#ifdef SYNCTAX_GRAPH_IS_KEPT
    size_t count = 0;
    if (cudaGraphGetNodes(graph.raw_cuda_graph(), nullptr, &count) != cudaSuccess)
        return -1;
    return int64_t(count);
#else
    return -1;
#endif
}

// Eager steps on a side stream first: they create the optimizer's state (momentum buffers)
// outside the graph and warm up cuBLAS/cuDNN for that stream, which must not happen in capture.
// Then one step is captured there (capture may not use the legacy default stream).
StepOutput captureStep(TrainingState& state, const std::vector<torch::Tensor>& inputs, const torch::Tensor& target,
    at::cuda::CUDAGraph& graph, int warmups)
{
    const auto index = state.device().index();
    auto current = c10::cuda::getCurrentCUDAStream(index);
    auto side = c10::cuda::getStreamFromPool(false, index);
    at::cuda::CUDAEvent ready;
    ready.record(current);
    ready.block(side);
    StepOutput output;
    {
        c10::cuda::CUDAStreamGuard guard(side);
        for (int i = 0; i < warmups; ++i)
            state.runStep(inputs, target);
        graph.capture_begin();
        output = state.runStep(inputs, target);
        graph.capture_end();
    }
    at::cuda::CUDAEvent captured;
    captured.record(side);
    captured.block(current);
    return output;
}

class CudaGraphExecutor : public StepExecutor {
public:
    explicit CudaGraphExecutor(std::unique_ptr<TrainingState> state)
        : StepExecutor(std::move(state))
#ifdef SYNCTAX_GRAPH_IS_KEPT
        , m_graph(/*keep_graph=*/true)
#endif
    {
        for (const auto& input : m_state->batch(0).inputs)
            m_inputs.push_back(input.clone());
        m_target = m_state->batch(0).target.clone();
        m_output = captureStep(*m_state, m_inputs, m_target, m_graph, 3);
        const int64_t nodes = countNodes(m_graph);
        // the graph plus the copies of the inputs and the target
        m_launches = nodes > 0 ? nodes + int64_t(m_inputs.size()) + 1 : -1;
#ifdef SYNCTAX_GRAPH_IS_KEPT
        m_graph.instantiate(); // a kept graph is instantiated on request
#endif
    }

    StepOutput step() override
    {
        const Batch& b = m_state->batch(m_next++);
        for (size_t i = 0; i < m_inputs.size(); ++i)
            m_inputs[i].copy_(b.inputs[i], /*non_blocking=*/true);
        m_target.copy_(b.target, /*non_blocking=*/true);
        m_graph.replay();
        ++m_replays;
        return m_output;
    }

    int64_t launchesPerStep() override { return m_launches; }
    int64_t queueEntriesPerStep() override { return int64_t(m_inputs.size()) + 2; } // copies and the graph
    int64_t replays() const override { return m_replays; }

private:
    at::cuda::CUDAGraph m_graph;
    std::vector<torch::Tensor> m_inputs;
    torch::Tensor m_target;
    StepOutput m_output;
    size_t m_next = 1;
    int64_t m_launches = -1;
    int64_t m_replays = 0;
};

} // namespace

std::unique_ptr<StepExecutor> makeCudaGraphExecutor(std::unique_ptr<TrainingState> state)
{
    return std::make_unique<CudaGraphExecutor>(std::move(state));
}

int64_t countEagerLaunchesPerStep(TrainingState& state)
{
    if (!state.device().is_cuda())
        return -1;
#ifdef SYNCTAX_GRAPH_IS_KEPT
    at::cuda::CUDAGraph graph(/*keep_graph=*/true);
#else
    at::cuda::CUDAGraph graph;
#endif
    std::vector<torch::Tensor> inputs;
    for (const auto& input : state.batch(0).inputs)
        inputs.push_back(input.clone());
    const torch::Tensor target = state.batch(0).target.clone();
    captureStep(state, inputs, target, graph, 1);
    state.synchronize();
    return countNodes(graph);
}

#else

std::unique_ptr<StepExecutor> makeCudaGraphExecutor(std::unique_ptr<TrainingState>)
{
    throw std::runtime_error("mode cuda_graph needs a build of Torch with CUDA; this one has none");
}

int64_t countEagerLaunchesPerStep(TrainingState&) { return -1; }

#endif

} // namespace synctax
