#include "core/steps/queuesample.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(QueueSamples, CountStepsStillQueuedWhenEachFinishedDispatching)
{
    // Host dispatches a step every 1 ms; the GPU needs 3 ms per step: the queue grows.
    std::vector<int64_t> dispatched, completed;
    for (int i = 0; i < 5; ++i) {
        dispatched.push_back(1'000'000 * (i + 1));
        completed.push_back(3'000'000 * (i + 1));
    }
    const auto q = queueSamples(dispatched, completed);
    ASSERT_EQ(q.size(), 5u);
    EXPECT_DOUBLE_EQ(q[0].lagMs, 2.0);
    EXPECT_DOUBLE_EQ(q[4].lagMs, 10.0);
    EXPECT_EQ(q[0].queueSteps, 1);
    EXPECT_EQ(q[1].queueSteps, 2); // at 2 ms nothing has completed yet
    EXPECT_EQ(q[2].queueSteps, 2); // at 3 ms step 0 completes: steps 1 and 2 remain
    EXPECT_EQ(q[3].queueSteps, 3);
    EXPECT_EQ(q[4].queueSteps, 4);
}

TEST(QueueSamples, ASyncEveryStepKeepsOneStepQueued)
{
    // Each step completes before the next is dispatched, as with .item() after every step.
    const std::vector<int64_t> dispatched { 10, 30, 50 }, completed { 20, 40, 60 };
    for (const auto& q : queueSamples(dispatched, completed))
        EXPECT_EQ(q.queueSteps, 1);
}

TEST(QueueSamples, UnknownCompletionsAreNotCounted) { EXPECT_TRUE(queueSamples({ 1, 2 }, {}).empty()); }
