// A GPU idle interval is one bubble, however many syncs precede it, and a step's bubble is never
// more than the step: its tax stays within 100%.
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"

#include "tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace synctax;

namespace {

bool hasNote(const TraceReport& r, const std::string& words)
{
    return std::any_of(
        r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

// Two recordings of one loop in one file, the second `gapS` after the first ends, with its
// correlation ids moved past the first's: as if two profiler sessions' events were joined.
std::string twoRecordingsJoined(const std::string& path, double gapS)
{
    std::ifstream in(path);
    const nlohmann::json trace = nlohmann::json::parse(in);
    const nlohmann::json& events = trace.at("traceEvents");
    double first = 1e300, last = -1e300;
    for (const auto& e : events) {
        if (e.contains("ts") && e.value("ph", "") != "M") {
            first = std::min(first, e.at("ts").get<double>());
            last = std::max(last, e.at("ts").get<double>() + e.value("dur", 0.0));
        }
    }
    nlohmann::json joined = trace;
    const double shiftUs = last - first + gapS * 1e6;
    for (nlohmann::json e : events) {
        if (e.value("ph", "") == "M")
            continue; // the process and thread names are the first recording's
        if (e.contains("ts"))
            e["ts"] = e.at("ts").get<double>() + shiftUs;
        if (e.contains("args") && e.at("args").contains("correlation"))
            e["args"]["correlation"] = e.at("args").at("correlation").get<std::int64_t>() + 1000000;
        joined["traceEvents"].push_back(e);
    }
    return joined.dump();
}

} // namespace

TEST(TraceBubble, OneIdleGapAfterTwoSyncsIsCountedOnce)
{
    // loss.item() returns at 220 and torch.cuda.synchronize() at 250; the GPU idles from 220 until
    // the next kernel at 620 either way: 400 µs, the item's, and none for the synchronize.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000)
        .kernel(10, 10, 1, 30, 100)
        .op("aten::item", 200, 25)
        .sync("cudaStreamSynchronize", 205, 15)
        .sync("cudaDeviceSynchronize", 240, 10)
        .kernel(600, 10, 2, 620, 100);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.syncs.size(), 2u);
    EXPECT_NEAR(r.syncs[0].bubbleMs, 0.400, 1e-12);
    EXPECT_DOUBLE_EQ(r.syncs[1].bubbleMs, 0);
    EXPECT_EQ(r.syncs[1].bubbleEndNs, r.syncs[1].endNs); // no bubble of its own
    EXPECT_NEAR(r.steps[0].syncBubbleMs, 0.400, 1e-12);
    EXPECT_NEAR(r.steps[0].taxPct, 40.0, 1e-9);
    double shares = 0;
    for (const auto& site : r.sites)
        shares += site.sharePct;
    EXPECT_NEAR(shares, 40.0, 1e-9);
}

TEST(TraceBubble, AStepsBubbleIsHeldToTheStepAndSaidSo)
{
    // The sync at the end of a 1 ms step returns at 910; the next GPU work comes 3 ms later, in a
    // step of another recording: the step's bubble is its own 1 ms at most.
    TraceBuilder b;
    b.step("ProfilerStep#1", 0, 1000)
        .kernel(10, 10, 1, 30, 100)
        .sync("cudaDeviceSynchronize", 900, 10)
        .step("ProfilerStep#2", 3500, 1000)
        .kernel(3990, 5, 2, 4000, 100);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_NEAR(r.steps[0].syncBubbleMs, 1.0, 1e-12);
    EXPECT_NEAR(r.steps[0].taxPct, 100.0, 1e-9);
    EXPECT_LE(r.taxPct, 100.0);
    EXPECT_TRUE(hasNote(r, "1 sync bubble(s) longer than")) << ::testing::PrintToString(r.notes);
}

TEST(TraceBubble, TwoRecordingsJoinedTwoSecondsApartKeepTheTaxWithin100Percent)
{
    // The committed recording twice in one file: once read as one window, the 2 s between them
    // follow several syncs of the first (an item, then the profiler's synchronize), and were
    // counted once per sync: 297%.
    const std::string text
        = twoRecordingsJoined(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item-nostack.json", 2.0);
    const TraceReadResult read = readKinetoTraceText(text, "joined.json");
    ASSERT_TRUE(read.trace) << (read.error ? read.error->format() : "");
    const TraceReport r = analyseTrace(*read.trace);
    ASSERT_FALSE(r.steps.empty());
    EXPECT_GT(r.steps[0].stepMs, 2000.0); // the whole trace, both recordings and the gap
    for (const TraceStep& s : r.steps) {
        EXPECT_LE(s.syncBubbleMs, s.stepMs) << s.name;
        EXPECT_LE(s.taxPct, 100.0) << s.name;
    }
    EXPECT_LE(r.taxPct, 100.0);
    double shares = 0, bubbles = 0;
    for (const auto& site : r.sites)
        shares += site.sharePct;
    EXPECT_LE(shares, 100.0 + 1e-9);
    // No two syncs' counted bubbles overlap: together they fit in the window.
    for (const TraceSync& s : r.syncs)
        bubbles += s.step >= 0 ? s.bubbleMs : 0;
    EXPECT_LE(bubbles, r.steps[0].stepMs);
}
