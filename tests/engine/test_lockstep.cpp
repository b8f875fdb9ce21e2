// ExperimentRunner as one rank of a data-parallel run sees it (Lockstep), without collectives: a
// single process whose "other ranks" are the test's anyRank. Expected counts come from the config
// (min_steps, blocks, steps_per_block), the sink's file is read back.
#include "core/engine/run/experimentrunner.h"
#include "core/engine/training/stepexecutor.h"
#include "core/steps/stepring.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <unistd.h>

using namespace synctax;

namespace {

ExperimentConfig rankConfig(const std::string& sinkPath)
{
    ExperimentConfig c;
    c.name = "rank";
    c.device = "cpu";
    c.stepsPerBlock = 4;
    c.blocks = 3;
    c.minBlocks = 2;
    c.targetCiPp = 100; // would end the rounds at min_blocks in a run of its own
    c.warmupMinSteps = 7;
    c.warmupMaxSteps = 300;
    c.sink = { SinkSpec::Kind::File, sinkPath };
    c.models = { ModelSpec { "tiny_mlp", 4, 16, 8, 3 } };
    c.styles = { { "none", 0 }, { "print_every_step", 0 } };
    return c;
}

Lockstep lockstep(bool runsStyles, std::function<bool(bool)> anyRank)
{
    Lockstep l;
    l.makeExecutor
        = [](std::unique_ptr<TrainingState> state) { return makeStepExecutor(Mode::Eager, std::move(state)); };
    l.anyRank = std::move(anyRank);
    l.takeWaitMs = [] { return std::vector<double>(4, 0.5); };
    l.runsStyles = runsStyles;
    return l;
}

std::string sinkPath(const std::string& name)
{
    const auto p = std::filesystem::temp_directory_path() / ("synctax-lockstep-" + name + std::to_string(getpid()));
    std::filesystem::remove(p);
    return p.string();
}

size_t lines(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    return size_t(std::count(s.begin(), s.end(), '\n'));
}

} // namespace

TEST(Lockstep, ARankThatDoesNotLogRunsTheBaselineInEveryCell)
{
    const std::atomic<bool> stop { false };
    for (const bool logs : { true, false }) {
        SCOPED_TRACE(logs ? "runs the styles" : "logs nothing");
        const std::string path = sinkPath(logs ? "logs" : "quiet");
        {
            ExperimentRunner runner(rankConfig(path), nullptr);
            runner.lockstep = lockstep(logs, [](bool) { return false; }); // every round runs
            runner.run(stop);
        } // the sink's file is complete once the runner is gone
        // print_every_step writes a line a step: its 4 blocks (the unrecorded round and 3) of 4 steps.
        EXPECT_EQ(lines(path), logs ? 16u : 0u);
        std::filesystem::remove(path);
    }
}

TEST(Lockstep, WarmUpRunsMinStepsAndTheRanksEndTheRoundsTogether)
{
    const std::atomic<bool> stop { false };
    const std::string path = sinkPath("together");
    ExperimentRunner runner(rankConfig(path), nullptr);
    // The other ranks never want to end: only max blocks ends the rounds, whatever this rank's
    // interval says (target_ci_pp 100 would end them at min_blocks alone).
    int asked = 0;
    runner.lockstep = lockstep(true, [&](bool) {
        ++asked;
        return false;
    });
    const ExperimentResult r = runner.run(stop);
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_EQ(r.groups[0].warmupSteps, 7);
    EXPECT_EQ(r.groups[0].rounds, 3);
    // Not probed (the probe's steps would all-reduce on one rank alone); on a CPU there is no queue anyway.
    EXPECT_FALSE(r.groups[0].regime.available);
    EXPECT_EQ(r.groups[0].regime.reason, "no asynchronous queue on CPU");
    // Per cell whether it started anywhere (3 cells), then per measured round a stop and an end.
    EXPECT_EQ(asked, 3 + 3 * 2);
    for (const CellResult& c : r.cells) {
        EXPECT_EQ(c.stepsMeasured, 12) << c.style;
        ASSERT_TRUE(c.collectiveWaitMs) << c.style;
        EXPECT_DOUBLE_EQ(c.collectiveWaitMs->median, 0.5);
    }
    std::filesystem::remove(path);
}

TEST(Lockstep, AnotherRanksStopEndsTheRoundsHere)
{
    const std::atomic<bool> stop { false };
    const std::string path = sinkPath("stop");
    ExperimentRunner runner(rankConfig(path), nullptr);
    // Asked in order: each cell, then the stop (true: another rank was interrupted), then the end.
    int asked = 0;
    runner.lockstep = lockstep(true, [&](bool mine) { return ++asked == 4 ? true : mine; });
    const ExperimentResult r = runner.run(stop);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.groups[0].rounds, 1);
    EXPECT_EQ(r.groups[0].stopReason, "stopped");
    std::filesystem::remove(path);
}

// Each step's wait in the all-reduce goes with its record into the ring (and so into the rank's
// steps.csv), and the cell's collective_wait_ms summarises exactly those of its measured steps.
// The waits are the test's: 4 distinct values per call, the first call (warm-up's) dropped.
TEST(Lockstep, EachStepRecordCarriesTheWaitTheCellSummarises)
{
    const std::atomic<bool> stop { false };
    const std::string path = sinkPath("waits");
    StepRing ring;
    ExperimentRunner runner(rankConfig(path), &ring);
    runner.lockstep = lockstep(true, [](bool) { return false; });
    int calls = 0;
    runner.lockstep->takeWaitMs = [&calls] {
        ++calls;
        return std::vector<double> { calls + 0.125, calls + 0.5, calls + 0.25, calls + 0.75 };
    };
    const ExperimentResult r = runner.run(stop);
    std::vector<StepRecord> records;
    ring.drain(records);
    // The warm-up's call, then one per block: 3 cells, the unrecorded round and 3 measured ones.
    EXPECT_EQ(calls, 1 + 3 * 4);
    ASSERT_EQ(records.size(), size_t(3 * 4 * 4));
    for (const StepRecord& rec : records) {
        const double offset = std::vector<double> { 0.125, 0.5, 0.25, 0.75 }[rec.step];
        const double call = rec.collectiveWaitMs - offset;
        EXPECT_EQ(call, std::floor(call)) << "step " << rec.step << ": " << rec.collectiveWaitMs;
        EXPECT_GE(call, 2) << "a warm-up wait in a block";
    }
    for (const CellResult& c : r.cells) {
        std::vector<double> waits;
        for (const StepRecord& rec : records) {
            if (rec.round >= 0 && runner.cells()[rec.cell].style == c.style)
                waits.push_back(rec.collectiveWaitMs);
        }
        ASSERT_EQ(waits.size(), 12u) << c.style;
        std::sort(waits.begin(), waits.end());
        ASSERT_TRUE(c.collectiveWaitMs) << c.style;
        EXPECT_DOUBLE_EQ(c.collectiveWaitMs->median, (waits[5] + waits[6]) / 2) << c.style;
        EXPECT_DOUBLE_EQ(c.collectiveWaitMs->mean, std::accumulate(waits.begin(), waits.end(), 0.0) / 12) << c.style;
    }
    std::filesystem::remove(path);
}
