#pragma once

#include "core/engine/distributed/gradientbuckets.h"
#include "core/engine/training/stepexecutor.h"

#include <memory>
#include <vector>

namespace synctax {

class Collectives;

// One rank's training step of data-parallel training: forward and backward on this rank's batch,
// the gradients all-reduced in buckets while backward runs (GradientBuckets), averaged, then the
// optimizer step; every rank's parameters stay the same. The constructor broadcasts rank 0's
// parameters and buffers, so the ranks start alike whatever their seeds.
class DataParallelExecutor : public StepExecutor {
public:
    DataParallelExecutor(std::unique_ptr<TrainingState> state, Collectives& collectives,
        int64_t bucketCapBytes = GradientBuckets::defaultCapBytes);

    StepOutput step() override;
    // One data-parallel step on this batch (step() takes the state's next).
    StepOutput step(const std::vector<torch::Tensor>& inputs, const torch::Tensor& target);
    int64_t launchesPerStep() override { return -1; } // a counting step would all-reduce on one rank alone

    // Host time each step since the last call spent blocked waiting for its all-reduces, in ms.
    std::vector<double> takeWaitMs();
    size_t bucketCount() const { return m_buckets->bucketCount(); }

private:
    std::unique_ptr<GradientBuckets> m_buckets;
    std::vector<double> m_waitMs;
    size_t m_next = 0;
};

} // namespace synctax
