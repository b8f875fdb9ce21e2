#pragma once

#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/replaysimulator.h"

#include <cstddef>
#include <cstdint>
#include <deque>

namespace synctax {

// The simulated clocks of a replay, in µs, and what the steps so far added up to. Shared by the
// plain replay (replaysimulator.h) and the replay under a logging style (stylereplay.h).
struct ReplayState {
    double host = 0;
    double gpuFree = 0;
    double gpuBusy = 0; // total GPU busy time so far
    double syncWait = 0; // host time in syncs waiting for the GPU
    double blocked = 0; // host time blocked on a full queue
    std::int64_t maxPending = 0; // the most ops issued and not finished, at any launch
    std::deque<double> pending; // completion times of the ops issued and not finished, in order
};

// A launch: waits while `capacity` ops are pending, costs hostUs on the host, and its GPU op of
// gpuUs starts at max(the launch's end + idleStartUs, the GPU free): idleStartUs costs only an op
// that the GPU would otherwise reach sooner than that after its launch.
void replayLaunch(ReplayState& s, double hostUs, double gpuUs, std::size_t capacity, double idleStartUs = 0);

// A sync: waits until every issued op has finished, then costs costUs on the host.
void replaySync(ReplayState& s, double costUs);

// One recorded step's host walk, after its host work H: the launches and syncs in offset order with
// the recorded host work between them (the gaps, which move when the host is held up); each of the
// step's own syncs costs syncUs once the GPU is idle. hostBeforeSyncUs of host work goes just before
// the step's first sync, or after its last launch when it has none.
void replayRecordedStep(
    ReplayState& s, const StepSequence& seq, double syncUs, std::size_t capacity, double hostBeforeSyncUs = 0);

// One step as every replay runs it: the host work H of `options` (at the step's start, or before its
// first sync), then the recorded step with options.syncUs for its own syncs.
void replayHostAndStep(ReplayState& s, const StepSequence& seq, const ReplayOptions& options, std::size_t capacity);

} // namespace synctax
