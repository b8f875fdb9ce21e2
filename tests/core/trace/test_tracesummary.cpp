#include "core/trace/tracesummary.h"

#include "sampletracereport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace synctax;

// The values are sampleTraceReport()'s, chosen exact in binary so that they survive the round trip.
TEST(TraceSummary, WrittenAndParsedBack)
{
    const auto dir = std::filesystem::temp_directory_path() / "synctax-test-tracesummary";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "trace-summary.json").string();
    writeTraceSummary(path, sampleTraceReport(), ImportedLoop {}, WhatIf {});
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::ifstream in(path);
    const nlohmann::json j = nlohmann::json::parse(in);

    EXPECT_EQ(j.at("schema"), "synctax.trace/1");
    const auto& source = j.at("source");
    EXPECT_EQ(source.at("file"), "train.pt.trace.json.gz");
    EXPECT_TRUE(source.at("torch_version").is_null());
    EXPECT_EQ(source.at("cuda_version"), "13.0");
    EXPECT_EQ(source.at("device"), "NVIDIA H200");
    EXPECT_EQ(source.at("rank"), 1);
    EXPECT_EQ(source.at("world_size"), 2);
    EXPECT_EQ(j.at("steps_marked"), true);

    ASSERT_EQ(j.at("steps").size(), 2u);
    const auto& s = j.at("steps")[1];
    EXPECT_EQ(s.at("name"), "ProfilerStep#13");
    EXPECT_EQ(s.at("step_ms"), 1.0);
    EXPECT_EQ(s.at("dispatch_ms"), 0.25);
    EXPECT_EQ(s.at("gpu_busy_ms"), 0.5);
    EXPECT_EQ(s.at("launches"), 40);
    EXPECT_EQ(s.at("syncs"), 1);
    EXPECT_EQ(s.at("sync_wait_ms"), 0.125);
    EXPECT_EQ(s.at("sync_bubble_ms"), 0.0625);
    EXPECT_EQ(s.at("queue_max"), 8);
    EXPECT_EQ(s.at("lag_ms"), 0.375);
    EXPECT_EQ(s.at("tax_pct"), 6.25);
    EXPECT_EQ(s.at("idle_ms").at("host_wait"), 0.25);
    EXPECT_EQ(s.at("idle_ms").at("kernel_wait"), 0.0);
    EXPECT_EQ(s.at("idle_ms").at("other"), 0.125);

    ASSERT_EQ(j.at("sync_sites").size(), 1u);
    const auto& site = j.at("sync_sites")[0];
    EXPECT_EQ(site.at("op"), "aten::item");
    EXPECT_EQ(site.at("python"), "train.py(87): <module>");
    EXPECT_EQ(site.at("per_step"), 1.0);
    EXPECT_EQ(site.at("wait_ms"), 0.125);
    EXPECT_EQ(site.at("bubble_ms"), 0.0625);
    EXPECT_EQ(site.at("share_pct"), 6.25);

    ASSERT_EQ(j.at("syncs").size(), 2u);
    EXPECT_EQ(j.at("syncs")[1].at("step"), 1);
    EXPECT_EQ(j.at("syncs")[1].at("site"), 0);
    EXPECT_EQ(j.at("syncs")[1].at("start_ns"), 1900000);
    EXPECT_EQ(j.at("regime").at("label"), "dispatch_bound");
    EXPECT_EQ(j.at("regime").at("h_ms"), 0.625);
    EXPECT_EQ(j.at("queues")[0].at("stream"), 7);
    EXPECT_EQ(j.at("tax_pct"), 6.25);
    EXPECT_EQ(j.at("notes"), nlohmann::json::array({ "a note from the reader" }));
    // No loop was given: the what-if says so, with no rows (test_tracesummary_whatif.cpp has a real one).
    EXPECT_EQ(j.at("whatif").at("absent_reason"), "no loop to replay");
    EXPECT_TRUE(j.at("whatif").at("rows").empty());
    std::filesystem::remove_all(dir);
}

TEST(TraceSummary, AbsentValuesAreNull)
{
    TraceReport r = sampleTraceReport();
    r.source = {};
    r.sites[0].python.reset();
    r.syncs[0].site = -1;
    r.syncs[0].step = -1;
    const nlohmann::json j = toJson(r);
    EXPECT_TRUE(j.at("source").at("device").is_null());
    EXPECT_TRUE(j.at("source").at("rank").is_null());
    EXPECT_TRUE(j.at("source").at("cuda_version").is_null());
    EXPECT_TRUE(j.at("sync_sites")[0].at("python").is_null());
    EXPECT_TRUE(j.at("syncs")[0].at("step").is_null());
    EXPECT_TRUE(j.at("syncs")[0].at("site").is_null());
}

TEST(TraceSummary, FileNameByStem)
{
    EXPECT_EQ(traceSummaryFileName("/x/ddp/rank0.1796126751115722631.pt.trace.json.gz"),
        "trace-summary-rank0.1796126751115722631.json");
    EXPECT_EQ(traceSummaryFileName("tiny_mlp-item-nostack.json"), "trace-summary-tiny_mlp-item-nostack.json");
    EXPECT_EQ(traceSummaryFileName("a.pt.trace.json"), "trace-summary-a.json");
    EXPECT_EQ(traceSummaryFileName("plain"), "trace-summary-plain.json");
}

TEST(TraceSummary, FileNamesOfTracesSharingAStemTakeTheFolderThatTellsThemApart)
{
    // Two runs' traces of one name side by side: each summary is named by its nearest folder
    // that differs, and the others keep their plain names.
    const TraceSummaryNames n = traceSummaryFileNames(
        { "A/resnet50-none.pt.trace.json.gz", "B/resnet50-none.pt.trace.json.gz", "A/other.json" });
    ASSERT_TRUE(n.problem.empty()) << n.problem;
    EXPECT_EQ(n.names,
        (std::vector<std::string> {
            "trace-summary-A-resnet50-none.json", "trace-summary-B-resnet50-none.json", "trace-summary-other.json" }));
    EXPECT_NE(n.renamed.find("resnet50-none"), std::string::npos) << n.renamed;
    // The nearest folders agree: the first that differs joins them.
    const TraceSummaryNames deep = traceSummaryFileNames({ "/r/1/run/x.json", "/r/2/run/x.json" });
    ASSERT_TRUE(deep.problem.empty()) << deep.problem;
    EXPECT_EQ(deep.names, (std::vector<std::string> { "trace-summary-1-run-x.json", "trace-summary-2-run-x.json" }));
    // Nothing to tell apart: no names changed, nothing said.
    const TraceSummaryNames plain = traceSummaryFileNames({ "a/x.json", "a/y.json" });
    EXPECT_EQ(plain.names, (std::vector<std::string> { "trace-summary-x.json", "trace-summary-y.json" }));
    EXPECT_TRUE(plain.renamed.empty());
}

TEST(TraceSummary, OneFileGivenTwiceIsAProblemNotTwoSummaries)
{
    const TraceSummaryNames n = traceSummaryFileNames({ "a/x.json", "./a/../a/x.json" });
    EXPECT_NE(n.problem.find("a/x.json"), std::string::npos) << n.problem;
    EXPECT_NE(n.problem.find("twice"), std::string::npos) << n.problem;
}

TEST(TraceSummary, NamesThatStillMeetAreAProblem)
{
    // "A/x" takes the name "A-x", which is the plain name of the third file.
    const TraceSummaryNames n = traceSummaryFileNames({ "A/x.json", "B/x.json", "A-x.json" });
    EXPECT_NE(n.problem.find("trace-summary-A-x.json"), std::string::npos) << n.problem;
}
