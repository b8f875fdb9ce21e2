#include "core/trace/tracejoin.h"
#include "core/trace/tracesequences.h"

#include "tracebuilder.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(QueuedGpuGap, TheMedianGapBetweenOpsThatWaitedInTheQueue)
{
    // 30 kernels of 10 us on stream 7, all launched at the start (each launch 1 us): from the
    // second on, each was queued while the one before ran. The GPU starts them 1, 2 or 3 us after
    // the one before ends (10, 10 and 9 of them): the median is 2. Then ten kernels each launched
    // after the one before ended, 50 us apart: their gaps are the host's, not the GPU's, and count
    // for nothing; nor does a kernel on stream 8 amid them.
    TraceBuilder b;
    double start = 100;
    for (int i = 0; i < 30; ++i) {
        b.kernel(double(i), 1, 1000 + i, start, 10);
        start += 10 + double(1 + i % 3);
    }
    for (int i = 0; i < 10; ++i) {
        const double launch = start + 20;
        b.kernel(launch, 1, 2000 + i, launch + 5, 10);
        start = launch + 5 + 10;
    }
    b.kernel(0.5, 1, 3000, 101, 500, TraceBuilder::stream8);
    const KinetoTrace trace = b.build();
    const std::optional<double> gap = queuedGpuGapUs(trace, joinLaunches(trace));
    ASSERT_TRUE(gap);
    EXPECT_NEAR(*gap, 2.0, 1e-9);
}

TEST(QueuedGpuGap, TooFewQueuedPairsTellNothing)
{
    // 19 queued pairs: short of the 20 the median needs.
    TraceBuilder b;
    double start = 100;
    for (int i = 0; i < 20; ++i) {
        b.kernel(double(i), 1, 1000 + i, start, 10);
        start += 12;
    }
    const KinetoTrace nineteen = b.build();
    EXPECT_FALSE(queuedGpuGapUs(nineteen, joinLaunches(nineteen)));
    // One more, and the gap is there.
    b.kernel(20, 1, 1100, start, 10);
    const KinetoTrace twenty = b.build();
    const std::optional<double> gap = queuedGpuGapUs(twenty, joinLaunches(twenty));
    ASSERT_TRUE(gap);
    EXPECT_NEAR(*gap, 2.0, 1e-9);
}
