#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace synctax {

// One launch of a recorded step, as the replay simulator needs it. Offsets are from the step's start.
struct LaunchOp {
    double issueUs = 0; // host offset of the launch call's start from the step's start
    double hostUs = 0; // the launch call's duration
    double gpuUs = 0; // its GPU op's duration
    std::int64_t stream = 0;
};

// One recorded step: its launches in issue order and its syncs. The host's own work is what lies
// between them (the gaps), so the replay can move it when a sync or a full queue delays the host.
struct StepSequence {
    std::vector<LaunchOp> ops;
    double stepHostUs = 0; // the step's host time
    std::vector<double> syncAtUs; // host offsets of the step's syncs
    // Host offsets of the syncs' ends, one per syncAtUs: the host's own work resumes there, so the
    // recorded wait is replaced by the simulated one rather than counted as host work.
    std::vector<double> syncEndUs;
    // Host offsets of the starts of every recorded host event in the step (ops, Python frames,
    // runtime calls; any host thread), sorted: where a profiler's per-event cost lies, so a
    // calibration can take it out where it was paid (ReplayCalibration::perEventUs).
    std::vector<double> hostEventUs;
    // One per hostEventUs: 1 where the event is on another host thread than the loop's own (the one
    // whose step marker opens the step): the autograd engine's, which runs a GPU backward. Empty
    // where not known: all on the loop's.
    std::vector<std::uint8_t> hostEventOffLoop;
    // The soonest an op starts after its launch call ends (µs): what a GPU that has run dry takes to
    // start again. An op queued behind work that runs longer than that never waits for it; one
    // launched onto an idle GPU does. Fitted to the step from an idle GPU as measured unprofiled
    // (fitIdleStartToDrain); 0 where nothing was fitted.
    double idleStartUs = 0;
};

// The uniform model's step (simulator.h) as a sequence, for the replays: k launches back to back over
// dMs of host time, gMs of GPU time split evenly over them but for tailMs on the last. k = 0: host
// work alone, nothing queued (a step on the CPU).
StepSequence uniformSequence(double dMs, double gMs, std::int64_t k, double tailMs = 0);

} // namespace synctax
