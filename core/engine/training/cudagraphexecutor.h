#pragma once

#include "core/engine/training/stepexecutor.h"

#include <memory>

namespace synctax {

// Captures one whole training step (on a side stream, with static input buffers) and replays it:
// the C++ counterpart of torch.compile's reduce-overhead mode. Where Torch has no CUDA, throws.
std::unique_ptr<StepExecutor> makeCudaGraphExecutor(std::unique_ptr<TrainingState> state);

// Launches one eager step queues: the node count of a graph captured from it (the capture runs
// nothing). -1 on the CPU or where Torch has no CUDA.
int64_t countEagerLaunchesPerStep(TrainingState& state);

} // namespace synctax
