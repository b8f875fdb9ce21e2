// A data-parallel run's results: every rank's cells (with the host time blocked in the all-reduce)
// and the single-process comparison, written, read back and printed rank by rank; where each rank's
// outputs are (its folder, never outside the results' own; rank-K in files without one). The
// values are hand-built here.
#include "core/results/ranktable.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/runoutputs.h"
#include "tests/core/results/sampleresult.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

ExperimentResult rankedResult()
{
    ExperimentResult r = sampleResult();
    r.config.distributed = DistributedSpec { CollectiveBackend::Gloo, 2, SyncOn::Rank0, 30 };
    r.distributed = DistributedResult {};
    for (int k = 0; k < 2; ++k) {
        RankOutcome rank;
        rank.rank = k;
        rank.status = "ok";
        rank.cells = { r.cells[0], r.cells[1] };
        rank.cells[1].collectiveWaitMs = StepStats { 0.25 + k, 0.1, 0.5 + k, 0.3 + k };
        rank.cells[1].rankPrediction = RankPrediction { { 2.5 + k, "dispatch_bound", "uniform" }, 1.1, 0.2 + k, 0.15 };
        r.distributed->ranks.push_back(rank);
    }
    r.distributed->ranks[1].status = "killed";
    r.distributed->ranks[1].message = "killed by signal 9 (Killed)";
    // As the runner writes it: a whole run's cells, the baseline first.
    r.distributed->singleProcess = { r.cells[0], r.cells[1] };
    return r;
}

} // namespace

TEST(RankResults, SurviveARoundTrip)
{
    const ExperimentResult written = rankedResult();
    const ResultsLoadResult back = loadResultsText(toJson(written).dump(), "ranks.json");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    ASSERT_TRUE(back.result->distributed);
    const DistributedResult& d = *back.result->distributed;
    EXPECT_EQ(d.rank, -1);
    ASSERT_EQ(d.ranks.size(), 2u);
    EXPECT_EQ(d.ranks[1].rank, 1);
    EXPECT_EQ(d.ranks[1].status, "killed");
    EXPECT_EQ(d.ranks[1].message, "killed by signal 9 (Killed)");
    ASSERT_EQ(d.ranks[1].cells.size(), 2u);
    ASSERT_TRUE(d.ranks[1].cells[1].collectiveWaitMs);
    EXPECT_DOUBLE_EQ(d.ranks[1].cells[1].collectiveWaitMs->median, 1.25);
    EXPECT_DOUBLE_EQ(d.ranks[1].cells[1].collectiveWaitMs->p90, 1.5);
    EXPECT_FALSE(d.ranks[1].cells[0].collectiveWaitMs);
    ASSERT_TRUE(d.ranks[1].cells[1].rankPrediction);
    const RankPrediction& p = *d.ranks[1].cells[1].rankPrediction;
    EXPECT_DOUBLE_EQ(p.tax.overheadPct, 3.5);
    EXPECT_EQ(p.tax.regime, "dispatch_bound");
    EXPECT_EQ(p.tax.model, "uniform");
    EXPECT_DOUBLE_EQ(p.stepMs, 1.1);
    EXPECT_DOUBLE_EQ(p.collectiveWaitMs, 1.2);
    EXPECT_DOUBLE_EQ(p.collectiveMs, 0.15);
    EXPECT_FALSE(d.ranks[1].cells[0].rankPrediction);
    ASSERT_EQ(d.singleProcess.size(), 2u);
    EXPECT_EQ(d.singleProcess[1].style, "item");
    EXPECT_EQ(back.result->config.distributed, written.config.distributed);
}

TEST(RankResults, ARunOfOneProcessHasNoRankSection)
{
    const auto j = toJson(sampleResult());
    EXPECT_FALSE(j.contains("distributed"));
    EXPECT_EQ(formatRankTable(sampleResult()), "");
}

TEST(RankResults, TheTableShowsEveryRankAndTheSingleProcess)
{
    const std::string table = formatRankTable(rankedResult());
    EXPECT_NE(table.find("per rank (gloo, 2 ranks, styles on rank 0)"), std::string::npos) << table;
    EXPECT_NE(table.find("rank 1: killed: killed by signal 9 (Killed)"), std::string::npos) << table;
    // The model's name, what made its predictions, then a row per rank and style: rank 1's item has
    // a median step of 1.000 ms, a median wait of 1.250 ms, a predicted tax of +3.5%, its interval.
    EXPECT_NE(table.find("\ntiny_mlp\n  pred: the uniform model's barrier replay of every rank, all-reduce 0.150 ms\n"),
        std::string::npos)
        << table;
    EXPECT_NE(table.find("\n  1      item    1.000   1.250  +3.5%  +1.4% [+0.9, +2.0]\n"), std::string::npos) << table;
    // The single process has no prediction here (none on the CPU): an empty column.
    EXPECT_NE(table.find("\n  single item    1.000       -         +1.4% [+0.9, +2.0]\n"), std::string::npos) << table;
    // The style column is as wide as the longest style: a 20-character one with a 23-character
    // interval still fits 80 columns.
    ExperimentResult wide = rankedResult();
    CellResult& bar = wide.distributed->ranks[0].cells[1];
    bar.style = "progress_bar_postfix";
    bar.overheadPct = Interval { 103.2, 95.1, 110.7 };
    bar.rankPrediction->tax.overheadPct = 101.25;
    const std::string wideTable = formatRankTable(wide);
    EXPECT_NE(wideTable.find("\n  0      progress_bar_postfix   1.000   0.250 +101.2%  +103.2% [+95.1, +110.7]\n"),
        std::string::npos)
        << wideTable;
    size_t start = 0;
    for (size_t end; (end = wideTable.find('\n', start)) != std::string::npos; start = end + 1)
        EXPECT_LE(end - start, 80u) << wideTable.substr(start, end - start);
}

TEST(RankResults, ASweptRunHasAHeadingPerPoint)
{
    // Host work swept over 0 and 5 ms: each point is its own group, with its own baseline and
    // predictions, so its rows go under their own heading rather than one per model.
    ExperimentResult r = rankedResult();
    r.config.sweep = SweepSpec { { 0, 5000 }, {} };
    r.distributed->ranks[1].status = "ok";
    for (RankOutcome& rank : r.distributed->ranks) {
        std::vector<CellResult> cells = rank.cells;
        for (CellResult c : rank.cells) {
            c.hostWorkUs = 5000;
            if (c.rankPrediction)
                c.rankPrediction->collectiveMs = 0.5;
            cells.push_back(c);
        }
        rank.cells = cells;
    }
    const std::string table = formatRankTable(r);
    const size_t first = table.find(
        "\ntiny_mlp h=0 ms\n  pred: the uniform model's barrier replay of every rank, all-reduce 0.150 ms\n");
    const size_t second = table.find(
        "\ntiny_mlp h=5 ms\n  pred: the uniform model's barrier replay of every rank, all-reduce 0.500 ms\n");
    ASSERT_NE(first, std::string::npos) << table;
    ASSERT_NE(second, std::string::npos) << table;
    EXPECT_LT(first, second);
    // Rank 1's item row once under each heading; the single process's only under its own point.
    const std::string itemRow = "\n  1      item    1.000   1.250  +3.5%  +1.4% [+0.9, +2.0]\n";
    EXPECT_NE(table.find(itemRow, first), std::string::npos);
    EXPECT_LT(table.find(itemRow, first), second);
    EXPECT_NE(table.find(itemRow, second), std::string::npos);
    const size_t single = table.find("\n  single item");
    EXPECT_LT(single, second) << table;
    EXPECT_EQ(table.find("\n  single item", second), std::string::npos) << table;
}

namespace {

ExperimentResult withRankFolders(const std::string& folder1)
{
    ExperimentResult r = rankedResult();
    r.distributed->ranks[0].folder = "rank-0";
    r.distributed->ranks[1].folder = folder1;
    return r;
}

} // namespace

TEST(RankFolders, AreWrittenAndReadBack)
{
    const ExperimentResult written = withRankFolders("elsewhere/rank-1");
    const std::string text = toJson(written).dump();
    EXPECT_NE(text.find(R"("folder":"rank-0")"), std::string::npos) << text;
    const ResultsLoadResult back = loadResultsText(text, "ranks.json");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    const std::vector<RankOutcome>& ranks = back.result->distributed->ranks;
    ASSERT_EQ(ranks.size(), 2u);
    EXPECT_EQ(ranks[0].folder, "rank-0");
    EXPECT_EQ(ranks[1].folder, "elsewhere/rank-1");
    EXPECT_EQ(rankStepsPath("/runs/ddp", ranks[1]), "/runs/ddp/elsewhere/rank-1/steps.csv");
}

TEST(RankFolders, OutsideTheResultsFolderAreRefused)
{
    for (const std::string folder : { "../rank-1", "rank-1/../../etc", "/tmp/rank-1", "" }) {
        SCOPED_TRACE(folder);
        auto j = toJson(withRankFolders("rank-1"));
        j["distributed"]["ranks"][1]["folder"] = folder;
        const ResultsLoadResult back = loadResultsText(j.dump(), "ranks.json");
        ASSERT_FALSE(back.result);
        ASSERT_EQ(back.errors.size(), 1u);
        EXPECT_NE(back.errors[0].message.find("/distributed/ranks/1/folder"), std::string::npos)
            << back.errors[0].message;
    }
}

TEST(RankFolders, AreRankKWhereTheFileHasNone)
{
    RankOutcome rank;
    rank.rank = 3;
    EXPECT_EQ(rankFolderName(3), "rank-3");
    EXPECT_EQ(rankStepsPath("out", rank), "out/rank-3/steps.csv");
    // And a file without "folder" reads back without one.
    ExperimentResult r = withRankFolders("rank-1");
    r.distributed->ranks[1].folder.clear();
    const ResultsLoadResult back = loadResultsText(toJson(r).dump(), "ranks.json");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->distributed->ranks[1].folder, "");
}
