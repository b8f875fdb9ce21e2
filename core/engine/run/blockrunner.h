#pragma once

#include "core/engine/gpu/gputimeline.h"
#include "core/steps/steprecord.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace synctax {

class LoggingStyle;
class StepExecutor;
class StepRing;
class SyncCounter;

struct BlockJob {
    StepExecutor& executor;
    LoggingStyle& style;
    int64_t steps;
    int64_t hostWorkUs;
    StepRecord tag; // runId, cell and round filled in
    GpuTimeline* timeline; // per-step CUDA events; nullptr for none
    SyncCounter* syncs; // counts the style's syncs; nullptr in measured blocks
    // Steady-clock time after which the block ends, cut short as by a stop (0: none): a time budget
    // holds within one step.
    int64_t deadlineNs = 0;
    // Called at most once a second of a long block, between steps, so that the time left moves on.
    std::function<void()> tick = nullptr;
    // A data-parallel rank's per-step waits in the all-reduces since the last call (Lockstep::takeWaitMs),
    // taken once the block has ended; nullptr outside a data-parallel run.
    std::function<std::vector<double>()> takeWaitMs = nullptr;
};

struct BlockTiming {
    bool complete = false;
    double msPerStep = 0;
    // The host's own time per step, host work left out: from a step's start to all of its work queued,
    // the mean over the block's steps (its launches; a wait for a full queue where there is one).
    double dispatchMsPerStep = 0;
    // The same for the block's first two steps each, where it has two (else both 0): from an idle GPU,
    // before the queue fills, so they time the host itself.
    std::array<double, 2> firstStepsDispatchMs {};
    std::vector<double> stepMs; // start of a step to the start of the next (or the block's end)
    std::vector<QueueSample> queue; // per step; empty without a timeline
    std::vector<double> waitMs; // per step, from takeWaitMs; empty without it
    int64_t syncs = 0;
};

// The timed loop. Nothing in it waits for the device except what the style itself does, and the
// synchronize that closes the block so that its time covers all of its work. Step records go into
// the ring (if any) after that synchronize.
BlockTiming runBlock(const BlockJob& job, StepRing* ring, int64_t runStartNs, const std::atomic<bool>& stop);

// Runs unlogged steps in chunks until two chunks in a row agree within 5% per step (the first
// CUDA steps take up to hundreds of milliseconds), or max steps are spent, or the steady clock
// passes `deadlineNs` (checked after every step, from the first; 0: no deadline), or `stop` is set
// (checked before every step). Calls `tick` at most once a second. Returns steps run.
int64_t warmUp(StepExecutor& executor, int64_t minSteps, int64_t maxSteps, int64_t hostWorkUs,
    const std::atomic<bool>& stop, int64_t deadlineNs = 0, const std::function<void()>& tick = nullptr);

} // namespace synctax
