// The collective of a data-parallel step as a barrier across ranks (barrierreplay.h). The expected
// values are worked out by hand in each test from the model's rules: a collective ends at the latest
// arrival plus its cost, and a rank waits from its own arrival to that end.
#include "core/queuemodel/barrierreplay.h"
#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/stylereplay.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

constexpr double kEps = 1e-9;

// A CPU step: c µs of host work, nothing queued.
StepSequence hostOnly(double cUs) { return uniformSequence(cUs * 1e-3, 0, 0); }

// Costs with no closing-synchronize price, and `style` charged S µs of host time at every step.
ReplayCosts stallOf(const std::string& style, double sUs)
{
    ReplayCosts costs;
    costs.syncUs = 0;
    costs.measured[style] = { sUs, sUs };
    return costs;
}

BarrierOptions barrierOf(double collectiveUs, bool everyRank = false, CollectiveWait wait = CollectiveWait::Host)
{
    BarrierOptions b;
    b.collectiveUs = collectiveUs;
    b.styleOnEveryRank = everyRank;
    b.wait = wait;
    return b;
}

} // namespace

TEST(BarrierReplay, IdenticalRanksWithNoStyleWaitOnlyTheCollective)
{
    // Three ranks of 500 µs steps, a collective of 40 µs: they arrive together, so each waits 40 µs
    // and a step takes 540 µs; the closing synchronize costs 8 µs once per block of 10.
    ReplayCosts costs;
    costs.syncUs = 8;
    const std::vector<StepSequence> ranks(3, hostOnly(500));
    const auto block = replayBarrierBlock(ranks, { "none", 0 }, 10, {}, costs, barrierOf(40));
    ASSERT_EQ(block.size(), 3u);
    for (const RankBlockReplay& r : block) {
        EXPECT_NEAR(r.collectiveWaitMsPerStep, 0.040, kEps);
        EXPECT_NEAR(r.msPerStep, (10 * 540.0 + 8) / 10 * 1e-3, kEps);
    }
    const auto none = predictRankStyles(ranks, { { "none", 0 } }, 0, {}, costs, barrierOf(0));
    for (const auto& rank : none) {
        EXPECT_NEAR(rank[0].collectiveWaitMs, 0, kEps);
        EXPECT_NEAR(rank[0].stepMs, 0.500, kEps);
    }
}

TEST(BarrierReplay, AStallOnRankZeroSpreadsToEveryRank)
{
    // Two ranks of c = 500 µs, collective k = 40 µs, `item` costing S = 200 µs on rank 0 only. In a
    // long loop rank 0 arrives S late at every collective: rank 1's wait grows from k to k + S, and
    // both ranks' steps from c + k to c + k + S. Rank 1's tax is rank 0's: S / (c + k).
    const std::vector<StepSequence> ranks(2, hostOnly(500));
    const ReplayCosts costs = stallOf("item", 200);
    const auto p = predictRankStyles(ranks, { { "none", 0 }, { "item", 0 } }, 0, {}, costs, barrierOf(40));
    EXPECT_NEAR(p[0][1].collectiveWaitMs, 0.040, kEps);
    EXPECT_NEAR(p[1][1].collectiveWaitMs, 0.040 + 0.200, kEps);
    for (int r = 0; r < 2; ++r) {
        EXPECT_NEAR(p[r][0].stepMs, 0.540, kEps);
        EXPECT_NEAR(p[r][1].stepMs, 0.740, kEps);
        EXPECT_NEAR(p[r][1].taxPct, 200.0 / 540.0 * 100.0, 1e-9);
    }

    // In a block of n = 10 from a common start, rank 0's stall after the last step meets no later
    // collective: collective j ends at j (c + k) + (j - 1) S, so rank 1 waits n k + (n - 1) S and
    // ends at n (c + k) + (n - 1) S, rank 0 at n (c + k + S).
    const auto block = replayBarrierBlock(ranks, { "item", 0 }, 10, {}, costs, barrierOf(40));
    EXPECT_NEAR(block[0].msPerStep, 0.740, kEps);
    EXPECT_NEAR(block[1].msPerStep, (10 * 540.0 + 9 * 200.0) / 10 * 1e-3, kEps);
    EXPECT_NEAR(block[0].collectiveWaitMsPerStep, 0.040, kEps);
    EXPECT_NEAR(block[1].collectiveWaitMsPerStep, (10 * 40.0 + 9 * 200.0) / 10 * 1e-3, kEps);
}

TEST(BarrierReplay, TheSameStallOnEveryRankLeavesTheWaitsAsUnderNone)
{
    // sync_on all: every rank stalls S = 200 µs after each collective, so they still arrive together:
    // each waits k = 40 µs as under none, and each step grows by S.
    const std::vector<StepSequence> ranks(4, hostOnly(500));
    const auto p
        = predictRankStyles(ranks, { { "none", 0 }, { "item", 0 } }, 10, {}, stallOf("item", 200), barrierOf(40, true));
    for (const auto& rank : p) {
        EXPECT_NEAR(rank[1].collectiveWaitMs, rank[0].collectiveWaitMs, kEps);
        EXPECT_NEAR(rank[1].collectiveWaitMs, 0.040, kEps);
        EXPECT_NEAR(rank[1].stepMs - rank[0].stepMs, 0.200, kEps);
    }
}

TEST(BarrierReplay, TheFasterRankWaitsForTheSlowerOne)
{
    // Per-rank steps of 500 and 650 µs, k = 40 µs: rank 0 arrives 150 µs early at every collective.
    const auto p = predictRankStyles(
        { hostOnly(500), hostOnly(650) }, { { "none", 0 } }, 0, {}, stallOf("item", 0), barrierOf(40));
    EXPECT_NEAR(p[0][0].collectiveWaitMs, 0.190, kEps);
    EXPECT_NEAR(p[1][0].collectiveWaitMs, 0.040, kEps);
    EXPECT_NEAR(p[0][0].stepMs, 0.690, kEps);
    EXPECT_NEAR(p[1][0].stepMs, 0.690, kEps);
}

TEST(BarrierReplay, OneRankReplaysAsOneProcess)
{
    // A GPU step with a long last kernel and a recorded sync (ten 10 µs launches, the last 500 µs on
    // the GPU, a sync at 55 µs) under H = 300 µs: with one rank and a free collective, NCCL's wait in
    // the stream changes nothing, so every style's block and steady state equal stylereplay's.
    StepSequence gpuStep;
    for (int j = 0; j < 10; ++j)
        gpuStep.ops.push_back({ j * 10.0, 10.0, j == 9 ? 500.0 : 20.0, 7 });
    gpuStep.stepHostUs = 100;
    gpuStep.syncAtUs = { 55 };
    gpuStep.syncEndUs = { 60 };
    ReplayOptions options;
    options.hostWorkUs = 300;
    ReplayCosts costs;
    costs.measured["progress_bar_postfix"] = { 45, 12 };
    const std::vector<StyleSpec> styles { { "none", 0 }, { "item", 0 }, { "item_every_n", 4 },
        { "progress_bar_postfix", 0 }, { "gpu_accumulate", 0 }, { "metrics_item_each", 0 } };
    for (const StyleSpec& style : styles) {
        const StyleBlockReplay one = replayStyleBlock(gpuStep, style, 10, options, costs);
        const auto ranked
            = replayBarrierBlock({ gpuStep }, style, 10, options, costs, barrierOf(0, false, CollectiveWait::Stream));
        EXPECT_EQ(ranked[0].msPerStep, one.msPerStep) << style.name;
        EXPECT_EQ(ranked[0].syncWaitMsPerStep, one.syncWaitMsPerStep) << style.name;
        EXPECT_EQ(ranked[0].collectiveWaitMsPerStep, 0) << style.name;
    }
    for (const std::int64_t steps : { std::int64_t(10), std::int64_t(0) }) {
        const auto single = predictStyles(gpuStep, styles, steps, options, costs);
        const auto ranked = predictRankStyles(
            { gpuStep }, styles, steps, options, costs, barrierOf(0, false, CollectiveWait::Stream));
        for (size_t i = 0; i < styles.size(); ++i) {
            EXPECT_EQ(ranked[0][i].stepMs, single[i].stepMs) << styles[i].name;
            EXPECT_EQ(ranked[0][i].taxPct, single[i].taxPct) << styles[i].name;
        }
    }
    // On a CPU step (nothing queued) Gloo's host wait changes nothing either.
    const auto cpuSingle = predictStyles(hostOnly(700), styles, 10, options, costs);
    const auto cpuRanked = predictRankStyles({ hostOnly(700) }, styles, 10, options, costs, barrierOf(0));
    for (size_t i = 0; i < styles.size(); ++i)
        EXPECT_EQ(cpuRanked[0][i].stepMs, cpuSingle[i].stepMs) << styles[i].name;
}

TEST(BarrierReplay, GlooWaitsOnTheHostAndNcclInTheStream)
{
    // One launch per step: 10 µs on the host, 100 µs (rank 0) or 150 µs (rank 1) on the GPU; k = 5.
    // NCCL: the hosts run ahead, each GPU runs its op and the collective: a step is 150 + 5 µs and
    // rank 0's GPU waits 55 µs. Gloo: the host blocks until the collective ends, so each step's
    // launch (10 µs) comes after it: 10 + 150 + 5 = 165 µs; the waits are the same.
    const auto step = [](double gpuUs) {
        StepSequence s;
        s.ops.push_back({ 0, 10, gpuUs, 7 });
        s.stepHostUs = 10;
        return s;
    };
    const std::vector<StepSequence> ranks { step(100), step(150) };
    const ReplayCosts costs = stallOf("item", 0);
    const auto nccl
        = predictRankStyles(ranks, { { "none", 0 } }, 0, {}, costs, barrierOf(5, false, CollectiveWait::Stream));
    const auto gloo = predictRankStyles(ranks, { { "none", 0 } }, 0, {}, costs, barrierOf(5));
    for (int r = 0; r < 2; ++r) {
        EXPECT_NEAR(nccl[r][0].stepMs, 0.155, kEps);
        EXPECT_NEAR(gloo[r][0].stepMs, 0.165, kEps);
    }
    EXPECT_NEAR(nccl[0][0].collectiveWaitMs, 0.055, kEps);
    EXPECT_NEAR(nccl[1][0].collectiveWaitMs, 0.005, kEps);
    EXPECT_NEAR(gloo[0][0].collectiveWaitMs, 0.055, kEps);
    EXPECT_NEAR(gloo[1][0].collectiveWaitMs, 0.005, kEps);
}

TEST(BarrierReplay, TheUniformSequenceSpreadsDAndGOverItsLaunches)
{
    // D 1 ms, G 0.9 ms over K 4 with a 0.6 ms tail: launches every 250 µs, 100 µs of GPU each but the
    // last's 600 µs; K 0 is host work alone.
    const StepSequence s = uniformSequence(1.0, 0.9, 4, 0.6);
    ASSERT_EQ(s.ops.size(), 4u);
    EXPECT_NEAR(s.stepHostUs, 1000, kEps);
    EXPECT_NEAR(s.ops[2].issueUs, 500, kEps);
    EXPECT_NEAR(s.ops[2].hostUs, 250, kEps);
    EXPECT_NEAR(s.ops[0].gpuUs, 100, kEps);
    EXPECT_NEAR(s.ops[3].gpuUs, 600, kEps);
    EXPECT_TRUE(uniformSequence(2.0, 0, 0).ops.empty());
    EXPECT_NEAR(uniformSequence(2.0, 0, 0).stepHostUs, 2000, kEps);
}
