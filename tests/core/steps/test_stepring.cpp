#include "core/steps/stepring.h"

#include <gtest/gtest.h>

#include <thread>

using namespace synctax;

TEST(StepRing, CapacityRoundsUpToAPowerOfTwo)
{
    EXPECT_EQ(StepRing(5).capacity(), 8u);
    EXPECT_EQ(StepRing(16).capacity(), 16u);
}

TEST(StepRing, DeliversInOrderAndDropsWhenFull)
{
    StepRing ring(4);
    for (uint32_t i = 0; i < 6; ++i) {
        StepRecord r;
        r.step = i;
        EXPECT_EQ(ring.push(r), i < 4);
    }
    EXPECT_EQ(ring.dropped(), 2u);
    std::vector<StepRecord> out;
    EXPECT_EQ(ring.drain(out, 3), 3u);
    StepRecord r;
    r.step = 99;
    EXPECT_TRUE(ring.push(r));
    EXPECT_EQ(ring.drain(out), 2u);
    ASSERT_EQ(out.size(), 5u);
    const std::vector<uint32_t> steps { out[0].step, out[1].step, out[2].step, out[3].step, out[4].step };
    EXPECT_EQ(steps, (std::vector<uint32_t> { 0, 1, 2, 3, 99 }));
}

TEST(StepRing, ProducerAndConsumerOnTwoThreadsLoseNothingWhenTheConsumerKeepsUp)
{
    StepRing ring(1024);
    constexpr uint32_t total = 200000;
    std::atomic<bool> done { false };
    std::vector<StepRecord> received;
    std::thread consumer([&] {
        while (!done.load() || ring.drain(received) > 0)
            ring.drain(received);
    });
    uint32_t pushed = 0;
    for (uint32_t i = 0; i < total; ++i) {
        StepRecord r;
        r.step = i;
        while (!ring.push(r)) { }
        ++pushed;
    }
    done.store(true);
    consumer.join();
    ASSERT_EQ(received.size(), size_t(pushed));
    for (uint32_t i = 0; i < total; ++i)
        ASSERT_EQ(received[i].step, i);
}
