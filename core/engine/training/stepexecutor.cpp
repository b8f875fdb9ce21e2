#include "core/engine/training/stepexecutor.h"

#include "core/engine/training/cudagraphexecutor.h"

#include <torch/torch.h>

#include <stdexcept>

namespace synctax {

namespace {

class EagerExecutor : public StepExecutor {
public:
    explicit EagerExecutor(std::unique_ptr<TrainingState> state)
        : StepExecutor(std::move(state))
    {
    }

    StepOutput step() override
    {
        const Batch& b = m_state->batch(m_next++);
        return m_state->runStep(b.inputs, b.target);
    }

    int64_t launchesPerStep() override
    {
        if (m_launches == 0)
            m_launches = countEagerLaunchesPerStep(*m_state);
        return m_launches;
    }

private:
    size_t m_next = 0;
    int64_t m_launches = 0;
};

} // namespace

std::unique_ptr<StepExecutor> makeStepExecutor(Mode mode, std::unique_ptr<TrainingState> state)
{
    if (mode == Mode::Eager)
        return std::make_unique<EagerExecutor>(std::move(state));
    if (!state->device().is_cuda())
        throw std::runtime_error("mode cuda_graph needs a CUDA device; this cell runs on the CPU");
    return makeCudaGraphExecutor(std::move(state));
}

} // namespace synctax
