// The barrier replay's predictions for a data-parallel run's rank cells, calibrated from hand-built
// measurements. The expected values are worked out by hand in each test.
#include "core/analysis/rankprediction.h"
#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/stylereplay.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

constexpr double kEps = 1e-9;

CellResult cell(const std::string& style, std::vector<double> blockStepMs)
{
    CellResult c;
    c.model = "tiny_mlp";
    c.mode = "eager";
    c.style = style;
    c.stepsPerBlock = 10;
    c.stepsMeasured = 10 * std::int64_t(blockStepMs.size());
    c.blockStepMs = std::move(blockStepMs);
    return c;
}

CellResult rankCell(const std::string& style, double stepMs, double waitMs)
{
    CellResult c = cell(style, { stepMs, stepMs });
    c.collectiveWaitMs = StepStats { waitMs, waitMs, waitMs, waitMs };
    return c;
}

// Two Gloo ranks on the CPU, item on rank 0 only. Both ranks' baselines take 1.0 ms a step; rank 0
// waits 0.1 ms of it in the all-reduce, rank 1 0.3 ms: their own steps are 0.9 and 0.7 ms, and the
// all-reduce costs what brings the replayed baseline (the slower rank's 0.9 ms) to 1.0: 0.1 ms. In
// one process item cost +20% of a 0.5 ms step: 0.1 ms at every step; so did metrics_item_each, whose
// six small launches ran on the host there, inside that cost.
ExperimentResult twoRanks()
{
    ExperimentResult r;
    r.config.styles = { { "none", 0 }, { "item", 0 }, { "metrics_item_each", 0 } };
    r.config.distributed = DistributedSpec { CollectiveBackend::Gloo, 2, SyncOn::Rank0, 30 };
    r.distributed = DistributedResult {};
    const double waits[] = { 0.1, 0.3 };
    for (int k = 0; k < 2; ++k) {
        RankOutcome rank;
        rank.rank = k;
        rank.status = "ok";
        rank.cells = { rankCell("none", 1.0, waits[k]), rankCell("aa_control", 1.0, waits[k]),
            rankCell("item", 1.2, 0.2), rankCell("metrics_item_each", 1.2, 0.2) };
        r.distributed->ranks.push_back(rank);
    }
    CellResult singleItem = cell("item", { 0.6, 0.6 });
    singleItem.overheadPct = Interval { 20, 10, 30 };
    CellResult singleMetrics = singleItem;
    singleMetrics.style = "metrics_item_each";
    r.distributed->singleProcess = { cell("none", { 0.5, 0.5 }), singleItem, singleMetrics };
    return r;
}

// The single process's group of the ranks' cells, with neither a regime nor a captured step yet.
GroupResult singleGroup()
{
    GroupResult g;
    g.model = "tiny_mlp";
    g.mode = "eager";
    return g;
}

// The same group with a captured step, item's measured cost and the step's drain from idle.
GroupResult replayedGroup(const StepSequence& step, StyleHostCost item, double drainMs = 0)
{
    GroupResult g = singleGroup();
    CapturedReplay replay;
    replay.step = step;
    replay.costs.syncUs = 0;
    replay.costs.measured["item"] = item;
    replay.drainMs = drainMs;
    g.replay = replay;
    return g;
}

} // namespace

TEST(RankPrediction, TheBarrierReplayCalibratedFromTheRunsBaselines)
{
    ExperimentResult r = twoRanks();
    predictRankCells(r, {});
    const auto& ranks = r.distributed->ranks;
    for (int k = 0; k < 2; ++k) {
        for (const CellResult& c : ranks[k].cells) {
            ASSERT_TRUE(c.rankPrediction) << k << " " << c.style;
            EXPECT_EQ(c.rankPrediction->tax.model, "uniform");
            EXPECT_EQ(c.rankPrediction->tax.regime, "dispatch_bound");
            EXPECT_NEAR(c.rankPrediction->collectiveMs, 0.1, kEps);
        }
        // The baseline as measured: 1.0 ms a step, each rank's own wait; its control the same.
        for (int i : { 0, 1 }) {
            EXPECT_NEAR(ranks[k].cells[i].rankPrediction->stepMs, 1.0, kEps);
            EXPECT_NEAR(ranks[k].cells[i].rankPrediction->collectiveWaitMs, k == 0 ? 0.1 : 0.3, kEps);
            EXPECT_NEAR(ranks[k].cells[i].rankPrediction->tax.overheadPct, 0, kEps);
        }
    }
    // item, blocks of 10: all-reduce j ends at 1.1 j - 0.1 ms (rank 0 arrives 0.9 ms after the last
    // one's end plus its 0.1 ms of item). Rank 0 waits 0.1 ms each time and ends at 10 x 1.1 ms; rank 1
    // arrives 0.7 ms after the last end, waits 0.3 ms the first time and 0.4 after, and ends at the
    // tenth end, 10.9 ms.
    const RankPrediction& item0 = *ranks[0].cells[2].rankPrediction;
    const RankPrediction& item1 = *ranks[1].cells[2].rankPrediction;
    EXPECT_NEAR(item0.stepMs, 1.1, kEps);
    EXPECT_NEAR(item0.collectiveWaitMs, 0.1, kEps);
    EXPECT_NEAR(item0.tax.overheadPct, 10, 1e-6);
    EXPECT_NEAR(item1.stepMs, 1.09, kEps);
    EXPECT_NEAR(item1.collectiveWaitMs, (0.3 + 9 * 0.4) / 10, kEps);
    EXPECT_NEAR(item1.tax.overheadPct, 9, 1e-6);
    // The same 0.1 ms for metrics_item_each: on the CPU its launches add no GPU time to wait for.
    EXPECT_NEAR(ranks[0].cells[3].rankPrediction->stepMs, 1.1, kEps);
    EXPECT_NEAR(ranks[1].cells[3].rankPrediction->stepMs, 1.09, kEps);
}

TEST(RankPrediction, TheSingleProcesssCapturedStepIsReplayedWhereItHasOne)
{
    // The single process captured a 0.5 ms host step and measured item at 0.1 ms: each rank's step is
    // that one with its host scaled to the rank's own 0.9 or 0.7 ms, so the answers are the uniform
    // ones above, from the "replay" model.
    ExperimentResult r = twoRanks();
    r.distributed->singleProcess.clear();
    predictRankCells(r, { replayedGroup(uniformSequence(0.5, 0, 0), { 100, 100 }) });
    ASSERT_TRUE(r.distributed->ranks[1].cells[2].rankPrediction);
    const RankPrediction& item1 = *r.distributed->ranks[1].cells[2].rankPrediction;
    EXPECT_EQ(item1.tax.model, "replay");
    EXPECT_NEAR(item1.stepMs, 1.09, 1e-6);
    EXPECT_NEAR(item1.tax.overheadPct, 9, 1e-4);
}

TEST(RankPrediction, TheSingleProcesssStepFromIdleIsFittedForTheRanksToo)
{
    // A GPU-bound captured step (10 launches over 0.2 ms, 0.8 ms of GPU work) whose step from an
    // idle GPU drained 0.1 ms later than it replays, on NCCL ranks (the all-reduce holds the GPU, not
    // the host, so the baseline's queue never drains): item, which drains rank 0's queue every step,
    // is predicted slower with the GPU's start fitted to that than without it. (With Gloo every step
    // drains at the all-reduce, and the all-reduce's fitted cost takes up the start.)
    const auto itemStepMs = [](double drainMs) {
        ExperimentResult r = twoRanks();
        r.config.distributed->backend = CollectiveBackend::Nccl;
        r.distributed->singleProcess.clear();
        predictRankCells(r, { replayedGroup(uniformSequence(0.2, 0.8, 10), { 10, 0 }, drainMs) });
        return r.distributed->ranks[0].cells[2].rankPrediction->stepMs;
    };
    const double replayedDrainMs = replayedDrainUs(uniformSequence(0.2, 0.8, 10), 1021) * 1e-3;
    EXPECT_GT(itemStepMs(replayedDrainMs + 0.1) - itemStepMs(0), 0.05);
    EXPECT_NEAR(itemStepMs(replayedDrainMs), itemStepMs(0), 1e-9);
}

TEST(RankPrediction, TheSingleProcesssRegimeIsTheUniformModelsStep)
{
    // A single process that measured D 0.5 ms, G 0.05 ms, K 5, L 8 us but captured no step: each
    // rank's step is five even launches, its host refitted to the rank's own step, and item costs a
    // sync (L) after the step. With Gloo the all-reduce is charged whatever brings the replayed
    // baseline to the measured 1.0 ms, which it then is on both ranks; item must cost both more.
    ExperimentResult r = twoRanks();
    r.distributed->singleProcess.clear();
    GroupResult g = singleGroup();
    g.regime.available = true;
    g.regime.dMs = 0.5;
    g.regime.gMs = 0.05;
    g.regime.k = 5;
    g.regime.lUs = 8;
    predictRankCells(r, { g });
    for (const RankOutcome& rank : r.distributed->ranks) {
        ASSERT_TRUE(rank.cells[0].rankPrediction && rank.cells[2].rankPrediction);
        const RankPrediction& none = *rank.cells[0].rankPrediction;
        const RankPrediction& item = *rank.cells[2].rankPrediction;
        EXPECT_EQ(none.tax.model, "uniform");
        EXPECT_NEAR(none.stepMs, 1.0, kEps);
        EXPECT_GT(item.stepMs, none.stepMs);
        EXPECT_GT(item.tax.overheadPct, 0);
    }
}

TEST(RankPrediction, NoPredictionWithoutEveryRanksBaselineOrTheStylesCost)
{
    ExperimentResult noWait = twoRanks();
    noWait.distributed->ranks[1].cells[0].collectiveWaitMs.reset();
    predictRankCells(noWait, {});
    EXPECT_FALSE(noWait.distributed->ranks[0].cells[2].rankPrediction);

    // On the CPU item's cost comes from the single process only.
    ExperimentResult noSingle = twoRanks();
    noSingle.distributed->singleProcess.erase(noSingle.distributed->singleProcess.begin() + 1);
    predictRankCells(noSingle, {});
    EXPECT_FALSE(noSingle.distributed->ranks[0].cells[2].rankPrediction);

    ExperimentResult lostRank = twoRanks();
    lostRank.distributed->ranks.pop_back();
    predictRankCells(lostRank, {});
    EXPECT_FALSE(lostRank.distributed->ranks[0].cells[0].rankPrediction);
}
