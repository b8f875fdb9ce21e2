#include "core/trace/traceanalysis.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracequeue.h"

#include "tracebuilder.h"

#include <gtest/gtest.h>

using namespace synctax;

// HTA's queue length, worked out by hand: +1 at each launch call's start, -1 at its kernel's start.
TEST(TraceQueue, DepthSequenceOnOneStream)
{
    // Launches at 0, 10, 20; their kernels start at 50, 100, 150.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 200).kernel(0, 5, 1, 50, 50).kernel(10, 5, 2, 100, 50).kernel(20, 5, 3, 150, 40);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.queues.size(), 1u);
    const StreamQueue& q = r.queues[0];
    EXPECT_EQ(q.device, 0);
    EXPECT_EQ(q.stream, 7);
    const std::vector<std::pair<std::int64_t, int>> expected { { 0, 1 }, { 10000, 2 }, { 20000, 3 }, { 50000, 2 },
        { 100000, 1 }, { 150000, 0 } };
    ASSERT_EQ(q.points.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(q.points[i].ns, expected[i].first) << i;
        EXPECT_EQ(q.points[i].depth, expected[i].second) << i;
    }
    EXPECT_EQ(q.max, 3);
    // (1*10 + 2*10 + 3*30 + 2*50 + 1*50) / 150
    EXPECT_NEAR(q.mean, 270.0 / 150.0, 1e-12);
    EXPECT_EQ(r.steps[0].queueMax, 3);
}

TEST(TraceQueue, MaxInAWindowCarriesTheDepthIn)
{
    StreamQueue q;
    q.points = { { 0, 1 }, { 10, 4 }, { 20, 2 }, { 30, 0 } };
    EXPECT_EQ(queueMaxIn(q, 12, 25), 4); // 4 at the window's start
    EXPECT_EQ(queueMaxIn(q, 20, 40), 2);
    EXPECT_EQ(queueMaxIn(q, 31, 40), 0);
    EXPECT_EQ(queueMaxIn(q, -5, 5), 1);
}

TEST(TraceQueue, TwoStreamsHaveTheirOwnQueues)
{
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 500)
        .kernel(0, 5, 1, 100, 100)
        .kernel(10, 5, 2, 50, 100, TraceBuilder::stream8)
        .kernel(20, 5, 3, 200, 100);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.queues.size(), 2u);
    EXPECT_EQ(r.queues[0].stream, 7);
    EXPECT_EQ(r.queues[0].max, 2); // launched at 0 and 20, the first starts at 100
    EXPECT_EQ(r.queues[1].stream, 8);
    EXPECT_EQ(r.queues[1].max, 1);
    EXPECT_NEAR(r.steps[0].gpuBusyMs, 0.250, 1e-12); // 50-300
    // Stream 7's gap 200-200 is none; stream 8 has one op: no idle time on either.
    EXPECT_DOUBLE_EQ(r.steps[0].idleHostWaitMs + r.steps[0].idleKernelWaitMs + r.steps[0].idleOtherMs, 0);
}

TEST(TraceQueue, IdleTimeCategoriesFollowHta)
{
    // Stream 7: K1 0-100; K2 launched at 50, starts at 100.02 (20 ns gap: kernel wait); K3 launched
    // at 60, starts at 300 (gap 100 µs, launched before K2 ended: other); K4 launched at 450
    // after K3 ended at 400, starts at 460 (host wait, 60 µs).
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000)
        .kernel(0, 1, 1, 0, 100)
        .kernel(50, 1, 2, 100.02, 99.98)
        .kernel(60, 1, 3, 300, 100)
        .kernel(450, 1, 4, 460, 100);
    const TraceReport r = analyseTrace(b.build());
    EXPECT_NEAR(r.steps[0].idleKernelWaitMs, 0.00002, 1e-12);
    EXPECT_NEAR(r.steps[0].idleOtherMs, 0.100, 1e-12); // 200 to 300
    EXPECT_NEAR(r.steps[0].idleHostWaitMs, 0.060, 1e-12);
}

TEST(TraceQueue, KernelWaitIsAGapUnderThirtyMicroseconds)
{
    // HTA compares its consecutive_kernel_delay (30) with µs timestamps: K2's 29 µs gap, launched
    // while K1 ran, is kernel wait; K3's 30 µs gap is other.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000).kernel(0, 1, 1, 10, 100).kernel(20, 1, 2, 139, 100).kernel(30, 1, 3, 269, 100);
    const TraceReport r = analyseTrace(b.build());
    EXPECT_NEAR(r.steps[0].idleKernelWaitMs, 0.029, 1e-12);
    EXPECT_NEAR(r.steps[0].idleOtherMs, 0.030, 1e-12);
    EXPECT_DOUBLE_EQ(r.steps[0].idleHostWaitMs, 0);
}
