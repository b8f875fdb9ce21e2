#include "core/queuemodel/sequencetax.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

// One launch per step: the host spends 1 ms issuing it, the GPU 2 ms running it. Worked by hand:
// with no sync the host runs ahead and the GPU sets the pace, 2 ms per step. With a sync every
// step the GPU starts each op when its launch ends (1 ms), finishes at 3 ms, the host waits 2 ms
// for it and pays L = 10 µs: 3.01 ms per step. Every second step: two launches (host 0-1, 1-2 ms),
// the GPU runs them 1-3 and 3-5, the sync waits 3 ms and pays L: 5.01 ms per two steps.
StepSequence oneLongLaunch()
{
    StepSequence seq;
    seq.ops.push_back({ 0, 1000, 2000, 7 });
    seq.stepHostUs = 1000;
    return seq;
}

ReplayCosts roundTrip(double lUs)
{
    ReplayCosts costs;
    costs.syncUs = lUs;
    return costs;
}

} // namespace

TEST(SequenceSyncTax, ASyncEveryStepPaysTheGpuTimeTheHostNoLongerHides)
{
    const SyncTaxEstimate every = estimateSequenceSyncTax(oneLongLaunch(), 1, {}, roundTrip(10));
    EXPECT_NEAR(every.msPerStepWithout, 2.0, 1e-9);
    EXPECT_NEAR(every.msPerStepWith, 3.01, 1e-9);
    EXPECT_NEAR(every.taxPct, 50.5, 1e-7);
    EXPECT_NEAR(every.waitMsPerSync, 2.01, 1e-9); // 2 ms for the GPU, then L

    const SyncTaxEstimate second = estimateSequenceSyncTax(oneLongLaunch(), 2, {}, roundTrip(10));
    EXPECT_NEAR(second.msPerStepWith, 2.505, 1e-9);
    EXPECT_NEAR(second.taxPct, 25.25, 1e-7);
    EXPECT_NEAR(second.waitMsPerSync, 3.01, 1e-9);

    const SyncTaxEstimate none = estimateSequenceSyncTax(oneLongLaunch(), 0, {}, roundTrip(10));
    EXPECT_EQ(none.taxPct, 0);
    EXPECT_EQ(none.waitMsPerSync, 0);
    EXPECT_NEAR(none.msPerStepWith, 2.0, 1e-9);
}

TEST(SequenceSyncTax, HostWorkNoLongerOverlapsTheGpuOnceEachStepSyncs)
{
    // H = 3 ms: without a sync the host sets the pace, 4 ms per step, and the GPU hides behind it.
    ReplayOptions options;
    options.hostWorkUs = 3000;
    const SyncTaxEstimate e = estimateSequenceSyncTax(oneLongLaunch(), 1, options, roundTrip(10));
    EXPECT_NEAR(e.msPerStepWithout, 4.0, 1e-9);
    // Each step: H 0-3, launch 3-4, GPU 4-6, sync waits 2 ms and pays L: 6.01 ms.
    EXPECT_NEAR(e.msPerStepWith, 6.01, 1e-9);
    EXPECT_NEAR(e.waitMsPerSync, 2.01, 1e-9);
}

TEST(SequenceSyncTax, ScalingTheGpuKeepsEachOpsShareAndTheHost)
{
    StepSequence seq;
    seq.ops = { { 0, 5, 1, 7 }, { 10, 5, 3, 7 } };
    seq.stepHostUs = 20;
    const StepSequence scaled = withGpuTimeMs(seq, 0.008);
    ASSERT_EQ(scaled.ops.size(), 2u);
    EXPECT_NEAR(scaled.ops[0].gpuUs, 2, 1e-12);
    EXPECT_NEAR(scaled.ops[1].gpuUs, 6, 1e-12);
    EXPECT_EQ(scaled.ops[1].issueUs, 10);
    EXPECT_EQ(scaled.ops[1].hostUs, 5);
    EXPECT_EQ(scaled.stepHostUs, 20);
    EXPECT_TRUE(withGpuTimeMs(StepSequence {}, 1).ops.empty());
}

TEST(StyleReplayRecords, EachStepsStartQueuedGpuDoneAndLoggedTimes)
{
    // The first two steps of oneLongLaunch() with a sync every step, worked as above (ns).
    std::vector<StepRecord> records;
    const StyleBlockReplay block = replayStyleBlock(oneLongLaunch(), { "item", 0 }, 2, {}, roundTrip(10), &records);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].step, 0u);
    EXPECT_EQ(records[0].startNs, 0);
    EXPECT_EQ(records[0].dispatchedNs, 1'000'000);
    EXPECT_EQ(records[0].gpuDoneNs, 3'000'000);
    EXPECT_EQ(records[0].loggedNs, 3'010'000);
    EXPECT_EQ(records[1].step, 1u);
    EXPECT_EQ(records[1].startNs, 3'010'000);
    EXPECT_EQ(records[1].dispatchedNs, 4'010'000);
    EXPECT_EQ(records[1].gpuDoneNs, 6'010'000);
    EXPECT_EQ(records[1].loggedNs, 6'020'000);
    // The block as without records: the closing synchronize after the last step's sync costs L.
    EXPECT_NEAR(block.msPerStep, 6.03 / 2, 1e-9);

    // The baseline returns as soon as its launches are queued; the GPU runs on behind the host.
    records.clear();
    replayStyleBlock(oneLongLaunch(), { "none", 0 }, 3, {}, roundTrip(10), &records);
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[2].startNs, 2'000'000);
    EXPECT_EQ(records[2].loggedNs, records[2].dispatchedNs);
    EXPECT_EQ(records[2].gpuDoneNs, 7'000'000);
}
