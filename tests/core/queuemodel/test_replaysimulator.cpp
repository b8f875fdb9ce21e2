#include "core/config/experimentconfig.h"
#include "core/queuemodel/replaysimulator.h"
#include "core/queuemodel/simulator.h"
#include "core/queuemodel/stylereplay.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

constexpr double kEps = 1e-9;

// K identical launches back to back: op j issued at j * D/K, costing D/K on the host and G/K on
// the GPU; the step's host time is D. With `sync`, one sync right after the last launch (as the
// queue model's `item` places it).
StepSequence uniform(int k, double dUs, double gUs, bool sync)
{
    StepSequence seq;
    const double d = dUs / k;
    for (int j = 0; j < k; ++j)
        seq.ops.push_back({ j * d, d, gUs / k, 7 });
    seq.stepHostUs = dUs;
    if (sync) {
        seq.syncAtUs = { dUs };
        seq.syncEndUs = { dUs };
    }
    return seq;
}

ReplayOptions options(double hUs, std::int64_t queueCapacity = 1021)
{
    ReplayOptions o;
    o.steps = 50;
    o.hostWorkUs = hUs;
    o.syncUs = 8;
    o.queueCapacity = queueCapacity;
    return o;
}

// The uniform Simulator's time per step of `item`, from two blocks of different lengths so that
// the closing synchronize both pay cancels out.
double simulatorItemMsPerStep(double dMs, double gMs, double hUs)
{
    QueueModel m;
    m.dMs = dMs;
    m.gMs = gMs;
    m.hUs = hUs;
    m.lUs = 8;
    m.k = 20;
    const StyleSpec item { "item", 0 };
    const std::int64_t shortNs = Simulator(m).runBlock(item, 20, {}).durationNs;
    const std::int64_t longNs = Simulator(m).runBlock(item, 40, {}).durationNs;
    return double(longNs - shortNs) * 1e-6 / 20;
}

} // namespace

TEST(ReplaySimulator, UniformLaunchesWithoutSyncRunAtTheSlowerOfHostAndGpu)
{
    // GPU bound: D + H = 100 + 50 = 150 µs < G = 300 µs. The GPU, busy from the first launch on,
    // never catches up with the host: a step every G = 300 µs, never idle.
    const ReplayResult gpuBound = replaySteps(uniform(20, 100, 300, false), options(50));
    EXPECT_NEAR(gpuBound.msPerStep, 0.300, kEps);
    EXPECT_NEAR(gpuBound.gpuIdleMsPerStep, 0, kEps);
    // Host bound: G = 60 µs < D + H = 150 µs. Each 3 µs op runs as soon as its 5 µs launch ends:
    // a step every D + H = 150 µs, the GPU idle 150 - 60 = 90 µs of it.
    const ReplayResult hostBound = replaySteps(uniform(20, 100, 60, false), options(50));
    EXPECT_NEAR(hostBound.msPerStep, 0.150, kEps);
    EXPECT_NEAR(hostBound.gpuIdleMsPerStep, 0.090, kEps);
    EXPECT_NEAR(hostBound.syncWaitMsPerStep, 0, kEps);
}

TEST(ReplaySimulator, UniformLaunchesWithASyncEveryStepMatchTheUniformSimulator)
{
    // H = 50, then 20 launches of d = 5 µs. GPU bound (g = 15 µs > d): the first op ends its launch
    // at 55 and the GPU runs back to back until 55 + 300 = 355; the sync at 150 waits 205 µs, then
    // costs L = 8: 363 µs per step, the GPU idle 363 - 300 = 63 of it.
    const ReplayResult gpuBound = replaySteps(uniform(20, 100, 300, true), options(50));
    EXPECT_NEAR(gpuBound.msPerStep, 0.363, kEps);
    EXPECT_NEAR(gpuBound.gpuIdleMsPerStep, 0.063, kEps);
    EXPECT_NEAR(gpuBound.syncWaitMsPerStep, 0.205, kEps);
    EXPECT_NEAR(simulatorItemMsPerStep(0.1, 0.3, 50), 0.363, 1e-6);
    // Host bound (g = 3 µs < d): the last op runs 150..153, so 153 + 8 = 161 µs per step.
    const ReplayResult hostBound = replaySteps(uniform(20, 100, 60, true), options(50));
    EXPECT_NEAR(hostBound.msPerStep, 0.161, kEps);
    EXPECT_NEAR(hostBound.syncWaitMsPerStep, 0.003, kEps);
    EXPECT_NEAR(simulatorItemMsPerStep(0.1, 0.06, 50), 0.161, 1e-6);
}

TEST(ReplaySimulator, ASyncAfterALongLastKernelWaitsForItsTail)
{
    // Four 1 µs ops launched at 0, 10, 20, 30 (2 µs each), then a 100 µs kernel launched at 40;
    // the step's host work ends at 60 with a sync. The GPU is idle when the long kernel's launch
    // ends at 42, so it runs 42..142; the host reaches the sync 60 - 42 = 18 µs after that launch,
    // so it waits 100 - 18 = 82 µs: the step takes 60 + 82 + L = 150 µs.
    StepSequence seq;
    for (int j = 0; j < 4; ++j)
        seq.ops.push_back({ 10.0 * j, 2, 1, 7 });
    seq.ops.push_back({ 40, 2, 100, 7 });
    seq.stepHostUs = 60;
    seq.syncAtUs = { 60 };
    seq.syncEndUs = { 60 };
    const ReplayResult r = replaySteps(seq, options(0));
    EXPECT_NEAR(r.syncWaitMsPerStep, 0.082, kEps);
    EXPECT_NEAR(r.msPerStep, 0.150, kEps);
    // H = 10 µs moves the whole step, the kernel with it: the same tail, 10 µs more per step.
    const ReplayResult later = replaySteps(seq, options(10));
    EXPECT_NEAR(later.syncWaitMsPerStep, 0.082, kEps);
    EXPECT_NEAR(later.msPerStep, 0.160, kEps);
}

TEST(ReplaySimulator, AnOpLaunchedOntoAnIdleGpuStartsItsIdleStartLater)
{
    // Ten launches of 10 µs host and 100 µs GPU (D = 0.1 ms, G = 1 ms), a sync after the last. From
    // an idle GPU the first op's launch ends at 10 and it starts 50 µs later; the GPU then never
    // catches up with the host, so the whole step moves by those 50 µs: the sync returns at
    // 10 + 50 + 1000 + L = 1068 µs instead of 1018.
    StepSequence seq = uniform(10, 100, 1000, true);
    EXPECT_NEAR(replaySteps(seq, options(0)).msPerStep, 1.018, kEps);
    seq.idleStartUs = 50;
    EXPECT_NEAR(replaySteps(seq, options(0)).msPerStep, 1.068, kEps);
    // Without the sync the queue never empties after the first step: a full queue pays nothing.
    StepSequence steady = uniform(10, 100, 1000, false);
    const double before = replaySteps(steady, options(0)).msPerStep;
    steady.idleStartUs = 50;
    EXPECT_NEAR(replaySteps(steady, options(0)).msPerStep, before, kEps);
    // Host-bound (G = 50 µs against D = 100 µs): each 5 µs op would start as its launch ends, 10 µs
    // after the one before; with the start it starts 50 µs after its launch, behind nothing, so only
    // the step's end moves: the last op, launched by 100, is done at 155.
    StepSequence hostBound = uniform(10, 100, 50, false);
    EXPECT_NEAR(replayedDrainUs(hostBound, 1021), 105, kEps);
    hostBound.idleStartUs = 50;
    EXPECT_NEAR(replayedDrainUs(hostBound, 1021), 155, kEps);
}

TEST(ReplaySimulator, AFullQueueBlocksTheHost)
{
    // Ten launches of 1 µs host and 10 µs GPU each, a queue of 3, no sync. The GPU, busy from 1 µs
    // on, completes an op every 10 µs; each launch from the fourth on waits for the op three
    // before it to finish, 9 µs after the previous launch ended: the step takes the GPU's
    // 100 µs, 90 of them blocked.
    StepSequence seq;
    for (int j = 0; j < 10; ++j)
        seq.ops.push_back({ double(j), 1, 10, 7 });
    seq.stepHostUs = 10;
    const ReplayResult full = replaySteps(seq, options(0, 3));
    EXPECT_NEAR(full.msPerStep, 0.100, kEps);
    EXPECT_NEAR(full.queueBlockedMsPerStep, 0.090, kEps);
    EXPECT_NEAR(full.gpuIdleMsPerStep, 0, kEps);
    // With room for 1,021 the host never blocks (50 steps queue at most 500 ops).
    EXPECT_NEAR(replaySteps(seq, options(0)).queueBlockedMsPerStep, 0, kEps);

    // The same launches, then 50 µs of host work and a sync at 60. Blocked, the last launch ends
    // at 72 (when op 6 finished at 71, plus 1), the host work at 122, past the GPU's 101: 122 + L
    // = 130 µs per step, 8 + 6 * 9 = 62 of them blocked. Unblocked: the host work ends at 60, the
    // sync waits for the GPU's 101: 109 µs.
    seq.stepHostUs = 60;
    seq.syncAtUs = { 60 };
    seq.syncEndUs = { 60 };
    const ReplayResult blocked = replaySteps(seq, options(0, 3));
    EXPECT_NEAR(blocked.msPerStep, 0.130, kEps);
    EXPECT_NEAR(blocked.queueBlockedMsPerStep, 0.062, kEps);
    EXPECT_NEAR(blocked.syncWaitMsPerStep, 0, kEps);
    const ReplayResult roomy = replaySteps(seq, options(0));
    EXPECT_NEAR(roomy.msPerStep, 0.109, kEps);
    EXPECT_NEAR(roomy.syncWaitMsPerStep, 0.041, kEps);
}
