#pragma once

#include "core/queuemodel/launchsequence.h"

#include <cstdint>

namespace synctax {

struct ReplayOptions {
    std::int64_t steps = 50; // the sequence replayed this many times, back to back
    double hostWorkUs = 0; // H: extra host work per step
    // Where H is done: at the step's start (data loading), or after its launches and before its
    // first sync or the style's read (logging, a checkpoint), where the GPU drains under it.
    bool hostWorkBeforeSync = false;
    double syncUs = 8; // L: the round trip of one sync once the GPU is idle
    std::int64_t queueCapacity = 1021; // Q: launches pending before a launch blocks the host (H200)
};

// Steady state: the first step (the queue filling) is left out, so at least two steps are needed.
struct ReplayResult {
    double msPerStep = 0; // between consecutive steps' completions (host done and its GPU work done)
    double gpuIdleMsPerStep = 0; // the GPU's idle time inside those steps
    double syncWaitMsPerStep = 0; // host time in syncs waiting for the GPU, L not included
    double queueBlockedMsPerStep = 0; // host time blocked on a full queue
};

// Replays a recorded step: the host does H, then walks the step's launches and syncs in offset
// order, doing the recorded host work between them (the gaps, which move when the host is held
// up); a launch first waits while Q launches are pending, then costs its host time, and its GPU op
// starts at max(the launch's end + the step's idleStartUs, the GPU free): one engine for every stream, in issue order,
// so each stream's ops run in order. A sync waits until every issued op has finished, then costs L. No wall clock: the
// same sequence gives the same result.
ReplayResult replaySteps(const StepSequence& sequence, const ReplayOptions& options = {});

} // namespace synctax
