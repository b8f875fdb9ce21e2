#include "core/results/resultsjson.h"
#include "core/results/resulttable.h"
#include "sampleresult.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace synctax;

TEST(ResultsJson, CellsCarryTheDocumentedFields)
{
    const auto j = toJson(sampleResult());
    EXPECT_EQ(j["schema"], "synctax.results/1");
    ASSERT_EQ(j["cells"].size(), 3u);
    const auto& item = j["cells"][1];
    EXPECT_EQ(item["model"], "tiny_mlp");
    EXPECT_EQ(item["style"], "item");
    EXPECT_EQ(item["mode"], "eager");
    EXPECT_EQ(item["status"], "ok");
    EXPECT_EQ(item["steps_measured"], 100);
    EXPECT_DOUBLE_EQ(item["step_ms"]["p90"].get<double>(), 1.2);
    EXPECT_DOUBLE_EQ(item["overhead_pct"]["ci_low"].get<double>(), 0.91);
    EXPECT_TRUE(j["cells"][0]["overhead_pct"].is_null());
    const auto& failed = j["cells"][2];
    EXPECT_EQ(failed["status"], "failed");
    EXPECT_EQ(failed["error"], "CUDA out of memory, \"really\"");
    EXPECT_TRUE(failed["step_ms"].is_null());
    EXPECT_EQ(j["config"]["models"][0]["batch"], 256);
    EXPECT_TRUE(j.contains("environment"));
}

TEST(ResultsJson, WritesAtomicallyAndReadsBack)
{
    // Plain files only: with python's LibTorch, std::filesystem::remove_all binds to a copy inside
    // libtorch.so built by another compiler, and crashes.
    const auto path = (std::filesystem::temp_directory_path() / "synctax-test-results.json").string();
    writeJsonFileAtomically(path, toJson(sampleResult()));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::ifstream in(path);
    const auto back = nlohmann::json::parse(in);
    EXPECT_EQ(back["cells"].size(), 3u);
    std::remove(path.c_str());
}

TEST(ResultTable, ShowsIntervalsBaselineAndFailures)
{
    const std::string table = formatTable(sampleResult());
    EXPECT_NE(table.find("1.050 ms  +1.4% [+0.9, +2.0]"), std::string::npos) << table;
    EXPECT_NE(table.find("baseline"), std::string::npos) << table;
    EXPECT_NE(table.find("failed: tiny_mlp/eager/print_every_step: CUDA out of memory"), std::string::npos) << table;
}

TEST(ResultTable, SummaryCsvQuotesErrorsAndKeepsOneLinePerCell)
{
    const std::string csv = summaryCsv(sampleResult());
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
    // host_work_us and batch after the style: the sample's cells leave them 0.
    EXPECT_NE(
        csv.find("tiny_mlp,eager,item,0,0,ok,100,0,1.000000,0.900000,1.200000,1.050000,1.4400,0.9100,1.9600,3.0000,"),
        std::string::npos)
        << csv;
    EXPECT_NE(csv.find("\"CUDA out of memory, \"\"really\"\"\""), std::string::npos) << csv;
}
