#pragma once

#include "core/config/experimentconfig.h"
#include "core/engine/training/trainingstate.h"

#include <memory>

namespace synctax {

// Runs training steps in one mode: eagerly, op by op, or as a captured CUDA graph replayed whole.
class StepExecutor {
public:
    virtual ~StepExecutor() = default;
    virtual StepOutput step() = 0; // queues one step; returns without waiting for the device
    // Kernel launches and copies one step queues (K); -1 where it cannot be counted.
    virtual int64_t launchesPerStep() = 0;
    // Entries one step takes in the launch queue: K eagerly, a graph launch and two copies replayed.
    virtual int64_t queueEntriesPerStep() { return launchesPerStep(); }
    virtual int64_t replays() const { return 0; } // graph replays so far (cuda_graph mode)
    void synchronize() const { m_state->synchronize(); }
    TrainingState& state() { return *m_state; }

protected:
    explicit StepExecutor(std::unique_ptr<TrainingState> state)
        : m_state(std::move(state))
    {
    }
    std::unique_ptr<TrainingState> m_state;
};

// Throws std::runtime_error with a plain reason when the mode cannot run on this device or build.
std::unique_ptr<StepExecutor> makeStepExecutor(Mode mode, std::unique_ptr<TrainingState> state);

} // namespace synctax
