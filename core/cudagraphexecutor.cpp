#include "core/cudagraphexecutor.h"

#include <torch/torch.h>

#include <stdexcept>

#ifdef SYNCTAX_HAVE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace synctax {

#ifdef SYNCTAX_HAVE_CUDA

namespace {

    class CudaGraphExecutor : public StepExecutor {
    public:
        explicit CudaGraphExecutor(std::unique_ptr<TrainingState> state)
            : StepExecutor(std::move(state))
        {
            const auto index = m_state->device().index();
            m_input = m_state->batch(0).input.clone();
            m_target = m_state->batch(0).target.clone();
            auto current = c10::cuda::getCurrentCUDAStream(index);
            auto side = c10::cuda::getStreamFromPool(false, index);
            at::cuda::CUDAEvent ready;
            ready.record(current);
            ready.block(side);
            {
                // Eager steps on the side stream first: they create the optimizer's state (momentum
                // buffers) outside the graph, and warm up cuBLAS/cuDNN, which must not happen in capture.
                c10::cuda::CUDAStreamGuard guard(side);
                for (int i = 0; i < 3; ++i)
                    m_state->runStep(m_input, m_target);
                m_graph.capture_begin();
                m_output = m_state->runStep(m_input, m_target);
                m_graph.capture_end();
            }
            at::cuda::CUDAEvent captured;
            captured.record(side);
            captured.block(current);
        }

        StepOutput step() override
        {
            const Batch& b = m_state->batch(m_next++);
            m_input.copy_(b.input, /*non_blocking=*/true);
            m_target.copy_(b.target, /*non_blocking=*/true);
            m_graph.replay();
            return m_output;
        }

    private:
        at::cuda::CUDAGraph m_graph;
        torch::Tensor m_input;
        torch::Tensor m_target;
        StepOutput m_output;
        size_t m_next = 1;
    };

} // namespace

std::unique_ptr<StepExecutor> makeCudaGraphExecutor(std::unique_ptr<TrainingState> state)
{
    return std::make_unique<CudaGraphExecutor>(std::move(state));
}

#else

std::unique_ptr<StepExecutor> makeCudaGraphExecutor(std::unique_ptr<TrainingState>)
{
    throw std::runtime_error("mode cuda_graph needs a build of Torch with CUDA; this one has none");
}

#endif

} // namespace synctax
