#pragma once

#include <cstdint>

namespace synctax {

// What the training loop records about one step: plain values, safe to copy across threads.
// Records are pushed once their block has ended, when the GPU side of each step is known.
// Times are nanoseconds on the host's steady clock, relative to the start of the run.
struct StepRecord {
    uint32_t runId = 0;
    uint32_t cell = 0; // index into the run's cell list
    int32_t round = 0; // -1 for warm-up steps
    uint32_t step = 0; // step within its block
    int64_t startNs = 0; // step begins (before host work)
    int64_t dispatchedNs = 0; // all of the step's GPU work is queued
    int64_t loggedNs = 0; // the logging style returned
    int64_t gpuDoneNs = -1; // the step's GPU work completed (CUDA event); -1 when not measured
    float lagMs = -1; // gpuDoneNs - dispatchedNs: how far the host ran ahead; -1 when not measured
    int32_t queueSteps = -1; // steps dispatched but not complete at dispatchedNs; -1 when not measured
    // A data-parallel rank's host time blocked in the step's gradient all-reduces (the numbers its
    // cell's collective_wait_ms summarises); -1 outside a data-parallel run.
    double collectiveWaitMs = -1;
};

} // namespace synctax
