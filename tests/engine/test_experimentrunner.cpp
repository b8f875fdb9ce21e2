#include "core/engine/run/devices.h"
#include "core/engine/run/experimentrunner.h"
#include "core/steps/stepring.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace synctax;

namespace {

ExperimentConfig smallConfig()
{
    ExperimentConfig c;
    c.name = "unit";
    c.device = "cpu";
    c.stepsPerBlock = 3;
    c.blocks = 3;
    c.warmupMinSteps = 0;
    c.warmupMaxSteps = 2;
    c.models = { ModelSpec { "tiny_mlp", 4, 16, 8, 3 } };
    c.styles = { { "none", 0 }, { "item", 0 }, { "gpu_accumulate", 0 } };
    return c;
}

} // namespace

TEST(ExperimentRunner, RunsEveryCellInInterleavedRoundsAndComparesWithTheBaseline)
{
    StepRing ring(1024);
    ExperimentRunner runner(smallConfig(), &ring, 7);
    ASSERT_EQ(runner.cells().size(), 4u); // the three styles and the baseline's A/A copy
    EXPECT_EQ(runner.cells()[1].style, "aa_control");
    int64_t lastDone = 0, total = 0;
    runner.onProgress = [&](const RunProgress& p) {
        lastDone = p.blocksDone;
        total = p.blocksTotal;
    };
    const std::atomic<bool> stop { false };
    const ExperimentResult r = runner.run(stop);

    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(lastDone, runner.plannedBlocks());
    EXPECT_EQ(total, 4 * (3 + 1));
    ASSERT_EQ(r.cells.size(), 4u);
    for (const auto& cell : r.cells) {
        EXPECT_TRUE(cell.ok) << cell.style << ": " << cell.error;
        EXPECT_EQ(cell.stepsMeasured, 9);
        EXPECT_EQ(cell.blockRounds, (std::vector<int> { 0, 1, 2 }));
        EXPECT_GT(cell.stepMs.median, 0);
        EXPECT_LE(cell.stepMs.p10, cell.stepMs.median);
        EXPECT_LE(cell.stepMs.median, cell.stepMs.p90);
        EXPECT_EQ(cell.overheadPct.has_value(), cell.style != "none") << cell.style;
        ASSERT_TRUE(cell.verdict.has_value()) << cell.style;
        EXPECT_EQ(*cell.verdict == Verdict::Baseline, cell.style == "none") << cell.style;
        if (cell.overheadPct) {
            EXPECT_LE(cell.overheadPct->low, cell.overheadPct->estimate);
            EXPECT_LE(cell.overheadPct->estimate, cell.overheadPct->high);
        }
    }
    ASSERT_EQ(r.roundOrders.size(), 3u);
    for (const auto& order : r.roundOrders) {
        EXPECT_EQ(std::set<std::string>(order.styles.begin(), order.styles.end()),
            (std::set<std::string> { "none", "aa_control", "item", "gpu_accumulate" }));
    }
    EXPECT_EQ(r.environment.device, "cpu");
    EXPECT_FALSE(r.notes.empty()); // the CPU has no queue: said once

    std::vector<StepRecord> records;
    ring.drain(records);
    EXPECT_EQ(records.size(), size_t(4 * 4 * 3)); // cells x (warm-up round + 3 rounds) x steps
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_EQ(r.groups[0].rounds, 3);
    EXPECT_EQ(r.groups[0].stopReason, "max_blocks");
    EXPECT_FALSE(r.groups[0].clocks.available);
    EXPECT_TRUE(std::all_of(records.begin(), records.end(), [](const StepRecord& s) {
        return s.runId == 7 && s.startNs <= s.dispatchedNs && s.dispatchedNs <= s.loggedNs;
    }));
}

TEST(ExperimentRunner, ASweepRunsAGroupPerPointEachWithItsOwnCells)
{
    ExperimentConfig c = smallConfig();
    c.styles = { { "none", 0 }, { "item", 0 } };
    c.blocks = 2;
    c.minBlocks = 2;
    c.models[0].sweep = SweepSpec { { 0, 300 }, { 2, 4 } };
    ExperimentRunner runner(c);
    // Host work outer, batch inner, as listed; each point's baseline, A/A copy and item.
    const std::vector<std::pair<int64_t, int64_t>> points { { 0, 2 }, { 0, 4 }, { 300, 2 }, { 300, 4 } };
    ASSERT_EQ(runner.cells().size(), points.size() * 3);
    for (size_t i = 0; i < runner.cells().size(); ++i) {
        EXPECT_EQ(runner.cells()[i].hostWorkUs, points[i / 3].first) << i;
        EXPECT_EQ(runner.cells()[i].batch, points[i / 3].second) << i;
    }
    EXPECT_EQ(runner.plannedBlocks(), int64_t(points.size()) * 3 * (2 + 1));
    std::vector<std::pair<int64_t, int64_t>> finished;
    runner.onGroupFinished = [&](const GroupResult& g, const std::vector<CellResult>& cells) {
        finished.emplace_back(g.hostWorkUs, g.batch);
        for (const CellResult& cell : cells) {
            EXPECT_EQ(cell.hostWorkUs, g.hostWorkUs);
            EXPECT_EQ(cell.batch, g.batch);
        }
    };
    const std::atomic<bool> stop { false };
    const ExperimentResult r = runner.run(stop);
    EXPECT_EQ(finished, points);
    ASSERT_EQ(r.groups.size(), points.size());
    for (const CellResult& cell : r.cells) {
        EXPECT_TRUE(cell.ok) << cell.error;
        EXPECT_EQ(cell.blockRounds, (std::vector<int> { 0, 1 })) << cell.style << " at " << cell.hostWorkUs;
        if (cell.style != "none")
            EXPECT_TRUE(cell.overheadPct) << cell.style << " at " << cell.hostWorkUs << " us, batch " << cell.batch;
    }
    ASSERT_EQ(r.roundOrders.size(), points.size() * 2);
    EXPECT_EQ(r.roundOrders[2].hostWorkUs, 0);
    EXPECT_EQ(r.roundOrders[2].batch, 4);
}

TEST(ExperimentRunner, AGroupWithoutASweepCarriesItsHostWorkAndBatch)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 2;
    c.minBlocks = 2;
    c.hostWorkUs = 100;
    const std::atomic<bool> stop { false };
    const ExperimentResult r = ExperimentRunner(c).run(stop);
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_EQ(r.groups[0].hostWorkUs, 100);
    EXPECT_EQ(r.groups[0].batch, 4);
    for (const CellResult& cell : r.cells) {
        EXPECT_EQ(cell.hostWorkUs, 100);
        EXPECT_EQ(cell.batch, 4);
    }
}

TEST(ExperimentRunner, EachBlockKeepsTheHostsOwnTimePerStepWithoutTheHostWork)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 2;
    c.minBlocks = 2;
    c.hostWorkUs = 20000; // far longer than a tiny step on the CPU, even on a loaded machine
    const std::atomic<bool> stop { false };
    const ExperimentResult r = ExperimentRunner(c).run(stop);
    ASSERT_FALSE(r.cells.empty());
    for (const CellResult& cell : r.cells) {
        ASSERT_EQ(cell.blockDispatchMs.size(), cell.blockRounds.size()) << cell.style;
        for (size_t i = 0; i < cell.blockDispatchMs.size(); ++i) {
            EXPECT_GT(cell.blockDispatchMs[i], 0) << cell.style;
            // The step's own work, its host work left out: no more than the block's time per step
            // less it (with the host work in, it would be the whole step). Relative to the block's
            // own time, so a slow machine moves both sides alike.
            EXPECT_LE(cell.blockDispatchMs[i], cell.blockStepMs[i] - 20.0) << cell.style;
        }
        // The first two steps of each block alike, each its own: host work out, together no more
        // than the block's own work of its steps (with the host work in, they would hold 40 ms).
        ASSERT_EQ(cell.blockFirstStepsMs.size(), cell.blockRounds.size()) << cell.style;
        for (size_t i = 0; i < cell.blockFirstStepsMs.size(); ++i) {
            for (const double ms : cell.blockFirstStepsMs[i])
                EXPECT_GT(ms, 0) << cell.style;
            const auto& [first, second] = cell.blockFirstStepsMs[i];
            EXPECT_LE(first + second, (cell.blockStepMs[i] - 20.0) * double(c.stepsPerBlock)) << cell.style;
        }
    }
}

TEST(ExperimentRunner, BlockOrderFollowsTheSeed)
{
    auto orders = [](uint64_t seed) {
        ExperimentConfig c = smallConfig();
        c.seed = seed;
        c.blocks = 6;
        ExperimentRunner runner(c);
        std::vector<std::vector<std::string>> all;
        for (const auto& o : runner.run(std::atomic<bool> { false }).roundOrders)
            all.push_back(o.styles);
        return all;
    };
    EXPECT_EQ(orders(3), orders(3));
    EXPECT_NE(orders(3), orders(4));
}

TEST(ExperimentRunner, CudaGraphOnTheCpuFailsItsCellsAndTheOthersRun)
{
    ExperimentConfig c = smallConfig();
    c.modes = { Mode::Eager, Mode::CudaGraph };
    ExperimentRunner runner(c);
    const auto r = runner.run(std::atomic<bool> { false });
    ASSERT_EQ(r.cells.size(), 8u);
    for (const auto& cell : r.cells) {
        if (cell.mode == "cuda_graph") {
            EXPECT_FALSE(cell.ok);
            EXPECT_NE(cell.error.find("cuda_graph needs a CUDA device"), std::string::npos) << cell.error;
        } else {
            EXPECT_TRUE(cell.ok) << cell.error;
        }
    }
}

TEST(ExperimentRunner, StopEndsTheRunWithinABlockAndKeepsWhatWasMeasured)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 50;
    ExperimentRunner runner(c);
    std::atomic<bool> stop { false };
    runner.onProgress = [&](const RunProgress& p) {
        if (p.blocksDone >= 4 + 2 * 4) // the warm-up round and two measured rounds
            stop.store(true);
    };
    const auto r = runner.run(stop);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.groups.at(0).stopReason, "stopped");
    for (const auto& cell : r.cells) {
        EXPECT_TRUE(cell.ok);
        EXPECT_EQ(cell.blockRounds, (std::vector<int> { 0, 1 })) << cell.style;
    }
}

TEST(ExperimentRunner, StopsEarlyOnceEveryIntervalIsNarrowEnough)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 40;
    c.minBlocks = 4;
    c.targetCiPp = 1e6; // any interval is narrow enough
    const auto r = ExperimentRunner(c).run(std::atomic<bool> { false });
    EXPECT_EQ(r.groups.at(0).stopReason, "ci_target");
    EXPECT_EQ(r.groups.at(0).rounds, 4);
    for (const auto& cell : r.cells)
        EXPECT_EQ(cell.stepsMeasured, 4 * c.stepsPerBlock) << cell.style;
}

TEST(ExperimentRunner, StopsWhenTheTimeBudgetIsSpent)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 1000;
    c.minBlocks = 2;
    c.targetCiPp = 0; // never narrow enough
    c.timeBudgetS = 0.1;
    int64_t lastDone = 0;
    ExperimentRunner runner(c);
    runner.onProgress = [&](const RunProgress& p) { lastDone = p.blocksDone; };
    const auto r = runner.run(std::atomic<bool> { false });
    EXPECT_EQ(r.groups.at(0).stopReason, "time_budget");
    EXPECT_LT(r.groups.at(0).rounds, 1000);
    EXPECT_EQ(lastDone, runner.plannedBlocks()); // the progress still ends at 100%
}

TEST(ExperimentRunner, AModelsOwnTimeBudgetOverridesTheConfigs)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 100000;
    c.minBlocks = 2;
    c.targetCiPp = 0; // never narrow enough
    c.timeBudgetS = 3600; // would outlast the test
    c.models.at(0).timeBudgetS = 0.2;
    const auto r = ExperimentRunner(c).run(std::atomic<bool> { false });
    EXPECT_EQ(r.groups.at(0).stopReason, "time_budget");
    EXPECT_LT(r.groups.at(0).rounds, 100000);
}

// A warm-up that would never settle within its step limits stops at half the time budget, so that
// a slow machine or a large model cannot hold a run in its warm-up for ever.
TEST(ExperimentRunner, WarmUpStopsWithinTheTimeBudget)
{
    ExperimentConfig c = smallConfig();
    c.warmupMinSteps = 1'000'000;
    c.warmupMaxSteps = 1'000'000;
    c.timeBudgetS = 0.3;
    const auto r = ExperimentRunner(c).run(std::atomic<bool> { false });
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_GT(r.groups[0].warmupSteps, 0);
    EXPECT_LT(r.groups[0].warmupSteps, 1'000'000);
    EXPECT_GE(r.groups[0].rounds, 1);
    for (const auto& cell : r.cells)
        EXPECT_TRUE(cell.ok) << cell.style;
}

// On a CPU one block of a GPU-sized model can take minutes. The budget holds within the block the
// way a stop does: the block ends after the step that passes the budget and is not recorded.
TEST(ExperimentRunner, TheTimeBudgetHoldsWithinABlock)
{
    ExperimentConfig c = smallConfig();
    c.hostWorkUs = 1000; // every step, warm-up included, takes at least 1 ms
    c.stepsPerBlock = 2000; // so one block takes at least 2 s
    c.timeBudgetS = 0.5;
    StepRing ring(1 << 16);
    ExperimentRunner runner(c, &ring);
    int measured = 0;
    runner.onBlockMeasured = [&](const CellPlan&, int, int64_t, double) { ++measured; };
    const auto r = runner.run(std::atomic<bool> { false });
    std::vector<StepRecord> records;
    ring.drain(records);

    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_EQ(r.groups[0].stopReason, "time_budget");
    EXPECT_EQ(r.groups[0].rounds, 0);
    EXPECT_EQ(measured, 0);
    for (const auto& cell : r.cells) {
        EXPECT_TRUE(cell.ok) << cell.style << ": " << cell.error;
        EXPECT_EQ(cell.stepsMeasured, 0) << cell.style;
        EXPECT_TRUE(cell.blockRounds.empty()) << cell.style;
    }
    EXPECT_GT(records.size(), 0u); // a block was begun, and cut short
    // At 1 ms or more a step, the steps that fit in the budget, and the one that passes it.
    const auto stepsInBudget = int64_t(c.timeBudgetS * 1e6) / c.hostWorkUs + 1;
    EXPECT_LE(r.groups[0].warmupSteps + int64_t(records.size()), stepsInBudget);
}

// While a long block runs the progress is still reported, about once a second, with less time
// left each time: the ETA does not sit still until the block ends. Before the long block, a model
// that ends at its budget leaves most of its planned blocks unrun: they count as done, not as pace.
TEST(ExperimentRunner, ReportsTimeLeftDuringALongBlock)
{
    ExperimentConfig c = smallConfig();
    c.hostWorkUs = 100; // at least 0.3 ms a block
    c.models.at(0).blocks = 100000;
    c.models.at(0).timeBudgetS = 0.3;
    ModelSpec slow { "small_resnet", 2, 4, 8, 3 };
    slow.hostWorkUs = 1000;
    slow.stepsPerBlock = 5000; // 5 s at least
    slow.blocks = 100000;
    slow.timeBudgetS = 3.5;
    c.models.push_back(slow);
    std::vector<RunProgress> during;
    ExperimentRunner runner(c);
    runner.onProgress = [&](const RunProgress& p) {
        if (p.cell.rfind("small_resnet/eager/", 0) == 0 && p.cell.find(": running") != std::string::npos)
            during.push_back(p);
    };
    const auto r = runner.run(std::atomic<bool> { false });
    ASSERT_EQ(r.groups.size(), 2u);
    EXPECT_EQ(r.groups[0].stopReason, "time_budget");
    EXPECT_EQ(r.groups[1].stopReason, "time_budget");
    ASSERT_GE(during.size(), 2u);
    for (size_t i = 1; i < during.size(); ++i) {
        EXPECT_GT(during[i].elapsedS, during[i - 1].elapsedS);
        EXPECT_LT(during[i].remainingS, during[i - 1].remainingS) << i;
    }
    EXPECT_GT(during.front().blocksDone, 0); // so that the printers show the time left
}

// A stop ends a warm-up within one step, as it ends a block: a chunk of 10 GPU-sized steps can take
// minutes on a CPU.
TEST(ExperimentRunner, StopEndsAWarmUpWithinAStep)
{
    ExperimentConfig c = smallConfig();
    c.hostWorkUs = 200'000; // a chunk of 10 warm-up steps takes 2 s at least
    c.warmupMinSteps = 100;
    c.warmupMaxSteps = 100;
    std::atomic<bool> stop { false };
    ExperimentRunner runner(c);
    int warmingUp = 0;
    runner.onProgress = [&](const RunProgress& p) {
        // The second report of the phase comes from within the warm-up, a second or more into it.
        if (p.cell == "tiny_mlp/eager: warming up" && ++warmingUp == 2)
            stop.store(true);
    };
    const auto r = runner.run(stop);
    EXPECT_TRUE(r.stopped);
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_GE(r.groups[0].warmupSteps, 1);
    EXPECT_LT(r.groups[0].warmupSteps, 10); // within the first chunk
}

TEST(ExperimentRunner, ReportsTimeLeftThatEndsAtZero)
{
    ExperimentConfig c = smallConfig();
    c.blocks = 100000;
    c.minBlocks = 2;
    c.targetCiPp = 0;
    c.timeBudgetS = 0.3;
    std::vector<RunProgress> seen;
    ExperimentRunner runner(c);
    runner.onProgress = [&](const RunProgress& p) { seen.push_back(p); };
    runner.run(std::atomic<bool> { false });
    ASSERT_GT(seen.size(), 10u);
    for (const RunProgress& p : seen) {
        EXPECT_GE(p.remainingS, 0.0);
        EXPECT_LE(p.remainingS, c.timeBudgetS + 1e-9); // never more than the budget
        EXPECT_GE(p.fraction(), 0.0);
        EXPECT_LE(p.fraction(), 1.0);
    }
    EXPECT_DOUBLE_EQ(seen.back().remainingS, 0.0);
    EXPECT_DOUBLE_EQ(seen.back().fraction(), 1.0);
    EXPECT_GT(seen[seen.size() / 2].fraction(), 0.05); // the share grows with time, not with 1e5 rounds
}

TEST(ExperimentRunner, AskingForCudaWithoutItIsABadInput)
{
    if (cudaAvailable())
        GTEST_SKIP() << "CUDA is available here";
    ExperimentConfig c = smallConfig();
    c.device = "cuda";
    try {
        ExperimentRunner runner(c);
        FAIL() << "expected a DeviceError";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("device 'cuda' was asked for"), std::string::npos) << e.what();
    }
    EXPECT_EQ(resolveDevice("auto"), "cpu");
}
