#include "core/engine/distributed/dataparallelexecutor.h"

#include "core/engine/distributed/collectives.h"

#include <torch/torch.h>

namespace synctax {

DataParallelExecutor::DataParallelExecutor(
    std::unique_ptr<TrainingState> state, Collectives& collectives, int64_t bucketCapBytes)
    : StepExecutor(std::move(state))
{
    {
        torch::NoGradGuard noGrad;
        for (torch::Tensor t : m_state->parameters())
            collectives.broadcast(t, 0);
        for (torch::Tensor t : m_state->buffers())
            collectives.broadcast(t, 0);
    }
    m_buckets = std::make_unique<GradientBuckets>(m_state->parameters(), collectives, bucketCapBytes);
}

StepOutput DataParallelExecutor::step()
{
    const Batch& b = m_state->batch(m_next++);
    return step(b.inputs, b.target);
}

StepOutput DataParallelExecutor::step(const std::vector<torch::Tensor>& inputs, const torch::Tensor& target)
{
    StepOutput out = m_state->forwardBackward(inputs, target); // its hooks start the all-reduces
    m_waitMs.push_back(m_buckets->finish());
    m_state->optimizerStep();
    return out;
}

std::vector<double> DataParallelExecutor::takeWaitMs()
{
    // A copy, so that m_waitMs keeps its capacity: no allocation inside the next block's steps.
    std::vector<double> taken = m_waitMs;
    m_waitMs.clear();
    return taken;
}

} // namespace synctax
