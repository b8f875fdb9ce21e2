// A swept run in the files room: its groups' labels, the tax tables the runner prints after its
// table, and its host work and batch through results.json. The run is tests/core/sweepresult.h,
// its numbers picked by hand; the expected tables are written out by hand from them.
#include "core/results/resultsdiff.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"
#include "core/results/sweeptable.h"
#include "tests/core/sweepresult.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace synctax;

TEST(SweepTable, OneTablePerStyleOfHostWorkMeasuredAndPredicted)
{
    EXPECT_EQ(formatSweepTables(sweepResult(true)),
        "\n"
        "tax against host work: tiny_mlp/eager/item\n"
        "host work | measured [95% CI]     | predicted\n"
        "----------+-----------------------+----------\n"
        "     0 ms | +0.5% [+0.1, +0.9]    | +0.3%\n"
        "     5 ms | +12.0% [+10.5, +13.4] | +11.0%\n"
        "    15 ms | +3.2% [+2.5, +3.9]    | +2.8%\n"
        "\n"
        "tax against host work: tiny_mlp/eager/progress_bar\n"
        "host work | measured [95% CI]  | predicted\n"
        "----------+--------------------+----------\n"
        "     0 ms | +0.2% [-0.3, +0.7] | +0.0%\n"
        "     5 ms | +0.4% [-0.1, +0.9] | +0.2%\n"
        "    15 ms | +0.1% [-0.2, +0.4] | +0.1%\n");
}

TEST(SweepTable, WithoutPredictionsOrMeasurementsTheColumnSaysSo)
{
    ExperimentResult r = sweepResult(false);
    r.cells[2].overheadPct.reset(); // item at 0 ms: too few rounds for an interval
    r.cells[7].ok = false; // progress_bar at 5 ms
    r.cells[7].error = "boom";
    const std::string text = formatSweepTables(r);
    EXPECT_NE(text.find("     0 ms | -                     | -\n"), std::string::npos) << text;
    EXPECT_NE(text.find("     5 ms | failed             | -\n"), std::string::npos) << text;
}

TEST(SweepTable, ARunWithoutAHostWorkSweepHasNone)
{
    ExperimentResult r = sweepResult(true);
    r.config.sweep.reset();
    EXPECT_EQ(formatSweepTables(r), "");
    r.config.sweep = SweepSpec { {}, { 4 } }; // a batch sweep alone draws no curve against host work
    EXPECT_EQ(formatSweepTables(r), "");
}

TEST(SweepTable, AGroupsLabelShowsTheSweepsPointOnlyWhenTheRunSwept)
{
    ExperimentResult r = sweepResult(true);
    EXPECT_EQ(groupLabel(r, { "tiny_mlp", "eager", 15000, 4 }), "tiny_mlp h=15 ms");
    EXPECT_EQ(groupLabel(r, { "tiny_mlp", "eager", 2500, 4 }), "tiny_mlp h=2.5 ms");
    const std::string table = formatTable(r);
    EXPECT_NE(table.find("| tiny_mlp h=0 ms "), std::string::npos) << table;
    EXPECT_NE(table.find("| tiny_mlp h=5 ms "), std::string::npos) << table;
    EXPECT_NE(table.find("\ntiny_mlp h=15 ms: 20 rounds (ci_target)"), std::string::npos) << table;
    r.config.sweep->batch = { 4, 8 };
    r.config.modes = { Mode::Eager, Mode::CudaGraph };
    EXPECT_EQ(groupLabel(r, { "tiny_mlp", "eager", 15000, 4 }), "tiny_mlp/eager h=15 ms b=4");
    r.config.sweep.reset();
    EXPECT_EQ(groupLabel(r, { "tiny_mlp", "eager", 15000, 4 }), "tiny_mlp/eager");
}

TEST(SweepTable, HostWorkAndBatchGoThroughResultsJson)
{
    ExperimentResult r = sweepResult(true);
    r.config.models[0].sweep = SweepSpec { { 0, 5000, 15000 }, { 4 } };
    const nlohmann::json j = toJson(r);
    EXPECT_EQ(j["cells"][4]["host_work_us"], 5000);
    EXPECT_EQ(j["cells"][4]["batch"], 4);
    EXPECT_EQ(j["groups"][2]["host_work_us"], 15000);
    EXPECT_EQ(j["round_orders"][1]["host_work_us"], 5000);
    const ResultsLoadResult back = loadResultsText(j.dump(), "sweep.json");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    const ExperimentResult& b = *back.result;
    ASSERT_EQ(b.cells.size(), r.cells.size());
    for (size_t i = 0; i < r.cells.size(); ++i) {
        EXPECT_EQ(b.cells[i].hostWorkUs, r.cells[i].hostWorkUs) << i;
        EXPECT_EQ(b.cells[i].batch, 4) << i;
    }
    ASSERT_EQ(b.groups.size(), 3u);
    EXPECT_EQ(b.groups[1].hostWorkUs, 5000);
    EXPECT_EQ(b.groups[1].batch, 4);
    ASSERT_EQ(b.roundOrders.size(), 3u);
    EXPECT_EQ(b.roundOrders[2].hostWorkUs, 15000);
    // The sweep itself comes back with the config, so a loaded run still knows it swept.
    ASSERT_TRUE(b.config.sweep);
    EXPECT_EQ(b.config.sweep->hostWorkUs, (std::vector<int64_t> { 0, 5000, 15000 }));
    ASSERT_TRUE(b.config.models[0].sweep);
    EXPECT_EQ(b.config.models[0].sweep->batch, std::vector<int64_t> { 4 });
    EXPECT_EQ(formatSweepTables(b), formatSweepTables(r));
}

TEST(SweepTable, FilesWithoutHostWorkOrBatchTakeTheirModelsFromTheConfig)
{
    // Written before the fields existed: every cell and group ran at its model's batch and the
    // config's host work, which the file's own config gives.
    const std::string path = SYNCTAX_TEST_DATA "/results/h200/seed-app.json";
    std::ifstream in(path);
    const nlohmann::json raw = nlohmann::json::parse(in);
    ASSERT_FALSE(raw["cells"][0].contains("batch"));
    const ResultsLoadResult loaded = loadResultsFile(path);
    ASSERT_TRUE(loaded.result) << formatErrors(loaded.errors);
    ASSERT_EQ(loaded.result->cells.size(), raw["cells"].size());
    for (size_t i = 0; i < raw["cells"].size(); ++i) {
        const std::string model = raw["cells"][i]["model"];
        for (const auto& m : raw["config"]["models"]) {
            if (m["name"] == model) {
                EXPECT_EQ(loaded.result->cells[i].batch, m["batch"].get<int64_t>()) << i;
                EXPECT_EQ(loaded.result->cells[i].hostWorkUs, m["host_work_us"].get<int64_t>()) << i;
            }
        }
    }
    for (const GroupResult& g : loaded.result->groups)
        EXPECT_GT(g.batch, 0) << g.model;
}

TEST(SweepTable, ADiffPairsTheGroupsOfOnePointAndNamesIt)
{
    const ExperimentResult a = sweepResult(true);
    ExperimentResult b = a;
    b.cells[6].overheadPct = Interval { 30.0, 29.0, 31.0 }; // item at 5 ms
    const ResultsDiff diff = diffResults(a, b);
    ASSERT_EQ(diff.cells.size(), a.cells.size()); // each cell found in B at its own host work
    EXPECT_EQ(diff.cells[6].name(), "tiny_mlp/eager/item h=5 ms");
    EXPECT_FALSE(diff.cells[6].intervalsOverlap());
    EXPECT_TRUE(diff.cells[2].intervalsOverlap()); // item at 0 ms did not change
    const std::string text = formatDiff(diff);
    EXPECT_NE(text.find("tiny_mlp/eager/item h=5 ms "), std::string::npos) << text;
}
