#include "core/analysis/groupanalysis.h"
#include "core/analysis/processmerge.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

ExperimentConfig spreadConfig()
{
    ExperimentConfig c;
    c.name = "spread";
    c.seed = 10;
    c.blocks = 9;
    c.minBlocks = 4;
    c.timeBudgetS = 60;
    c.processes = 3;
    c.models = { ModelSpec { "tiny_mlp", 4, 16, 8, 3 }, ModelSpec { "small_resnet", 2, 8, 32, 10 } };
    c.models[1].timeBudgetS = 90;
    c.models[1].blocks = 4;
    c.styles = { { "none", 0 }, { "item", 0 } };
    return c;
}

// One process's result: `rounds` rounds of none, aa_control and item, item `ratio` times slower.
ExperimentResult part(int rounds, double baseMs, double ratio, int64_t stepsPerBlock = 10)
{
    ExperimentResult r;
    r.environment.device = "cpu";
    GroupResult g;
    g.model = "tiny_mlp";
    g.mode = "eager";
    g.rounds = rounds;
    g.stopReason = "time_budget";
    g.warmupSteps = 20;
    r.groups = { g };
    for (const char* style : { "none", "aa_control", "item" }) {
        CellResult c;
        c.model = "tiny_mlp";
        c.mode = "eager";
        c.style = style;
        c.stepsPerBlock = stepsPerBlock;
        c.warmupSteps = 20;
        const double ms = std::string(style) == "item" ? baseMs * ratio : baseMs;
        for (int round = 0; round < rounds; ++round) {
            c.blockRounds.push_back(round);
            // A little alternating noise, so that intervals have a width.
            c.blockStepMs.push_back(ms * (round % 2 ? 1.01 : 0.99));
        }
        c.stepsMeasured = rounds * stepsPerBlock;
        c.stepMs = { ms, ms * 0.9, ms * 1.1, ms };
        r.cells.push_back(c);
    }
    for (int round = 0; round < rounds; ++round)
        r.roundOrders.push_back({ { "tiny_mlp", "eager" }, round, { "item", "none", "aa_control" } });
    return r;
}

} // namespace

TEST(ProcessMerge, EachProcessRunsItsShareWithItsOwnSeed)
{
    const ExperimentConfig c = spreadConfig();
    const ExperimentConfig second = configForProcess(c, 1, 3);
    EXPECT_EQ(second.processes, 1);
    EXPECT_EQ(second.seed, 11u);
    EXPECT_DOUBLE_EQ(second.timeBudgetS, 20.0);
    EXPECT_EQ(second.blocks, 3);
    EXPECT_EQ(second.minBlocks, 2);
    EXPECT_DOUBLE_EQ(second.timeBudgetSFor(second.models[1]), 30.0);
    EXPECT_EQ(second.blocksFor(second.models[1]), 2); // never under 2 rounds
    EXPECT_EQ(second.blocksFor(second.models[0]), 3);
    EXPECT_EQ(configForProcess(c, 0, 1).blocks, 9); // one process runs it all
}

TEST(ProcessMerge, RoundsAreNumberedAcrossProcessesAndAnalysedAgain)
{
    ExperimentConfig c = spreadConfig();
    c.models.resize(1);
    // Three processes; the second ran its loop 20% slower, and item cost 4%, 5% and 6%.
    const ExperimentResult merged
        = mergeProcessResults(c, { part(3, 1.0, 1.04), part(4, 1.2, 1.05), part(2, 1.0, 1.06) });
    ASSERT_EQ(merged.groups.size(), 1u);
    const GroupResult& g = merged.groups[0];
    EXPECT_EQ(g.processRounds, (std::vector<int> { 3, 4, 2 }));
    EXPECT_EQ(g.rounds, 9);
    EXPECT_EQ(g.warmupSteps, 60);
    EXPECT_EQ(g.stopReason, "time_budget");
    ASSERT_EQ(merged.cells.size(), 3u);
    const CellResult& item = merged.cells[2];
    EXPECT_EQ(item.blockRounds, (std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7, 8 }));
    EXPECT_EQ(item.stepsMeasured, 90);
    EXPECT_EQ(item.pairedRounds, 9);
    // The mean step weighted by steps: (30 x 1.04 + 40 x 1.26 + 20 x 1.06) / 90.
    EXPECT_NEAR(item.stepMs.mean, (30 * 1.04 + 40 * 1.26 + 20 * 1.06) / 90, 1e-9);
    // The overhead across processes: the mean of 4, 5 and 6%, with a t interval of 2 degrees of freedom.
    ASSERT_TRUE(item.overheadPct);
    EXPECT_NEAR(item.overheadPct->estimate, 5.0, 0.05);
    EXPECT_LT(item.overheadPct->low, 4.0);
    EXPECT_GT(item.overheadPct->high, 6.0);
    EXPECT_EQ(item.verdict, Verdict::Significant);
    EXPECT_EQ(merged.cells[1].verdict, Verdict::WithinNoise); // the A/A control
    EXPECT_EQ(processOfRound(6, g.processRounds), 1);
    EXPECT_EQ(processOfRound(7, g.processRounds), 2);
    ASSERT_EQ(merged.roundOrders.size(), 9u);
    EXPECT_EQ(merged.roundOrders.back().round, 8);
    EXPECT_NE(std::find(merged.notes.begin(), merged.notes.end(),
                  "spread over 3 processes: intervals are taken across the processes' estimates (Student's t)"),
        merged.notes.end());
}

TEST(ProcessMerge, TheBlocksHostTimesFollowTheirBlocksOrGoWhenAProcessHasNone)
{
    ExperimentConfig c = spreadConfig();
    c.models.resize(1);
    ExperimentResult first = part(2, 1.0, 1.04);
    ExperimentResult second = part(3, 1.2, 1.05);
    for (auto* r : { &first, &second }) {
        for (CellResult& cell : r->cells)
            for (const double ms : cell.blockStepMs)
                cell.blockDispatchMs.push_back(ms * 0.5);
    }
    const ExperimentResult merged = mergeProcessResults(c, { first, second });
    const CellResult& item = merged.cells[2];
    ASSERT_EQ(item.blockDispatchMs.size(), item.blockRounds.size());
    for (size_t i = 0; i < item.blockRounds.size(); ++i)
        EXPECT_DOUBLE_EQ(item.blockDispatchMs[i], item.blockStepMs[i] * 0.5) << i;
    // A process whose file has none: the merged cell has none, rather than a list out of step.
    for (CellResult& cell : second.cells)
        cell.blockDispatchMs.clear();
    EXPECT_TRUE(mergeProcessResults(c, { first, second }).cells[2].blockDispatchMs.empty());
}

TEST(ProcessMerge, AFailedOrStoppedProcessSaysSo)
{
    ExperimentConfig c = spreadConfig();
    c.models.resize(1);
    ExperimentResult failed = part(3, 1.0, 1.05);
    failed.cells[2].ok = false;
    failed.cells[2].error = "CUDA out of memory";
    ExperimentResult stopped = part(1, 1.0, 1.05);
    stopped.stopped = true;
    stopped.groups[0].stopReason = "stopped";
    const ExperimentResult merged = mergeProcessResults(c, { part(3, 1.0, 1.05), failed, stopped });
    EXPECT_FALSE(merged.cells[2].ok);
    EXPECT_EQ(merged.cells[2].error, "CUDA out of memory");
    EXPECT_TRUE(merged.stopped);
    EXPECT_EQ(merged.groups[0].stopReason, "stopped");
}
