#include "core/distributed/dataparallelexecutor.h"

#include "core/distributed/collectives.h"

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
    m_state->beforeOptimizerStep = [this] { m_waitMs.push_back(m_buckets->finish()); };
}

DataParallelExecutor::~DataParallelExecutor() { m_state->beforeOptimizerStep = nullptr; }

StepOutput DataParallelExecutor::step()
{
    const Batch& b = m_state->batch(m_next++);
    return m_state->runStep(b.inputs, b.target);
}

std::vector<double> DataParallelExecutor::takeWaitMs()
{
    std::vector<double> taken;
    taken.swap(m_waitMs);
    return taken;
}

} // namespace synctax
