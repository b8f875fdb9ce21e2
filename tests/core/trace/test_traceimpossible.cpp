// Traces that cannot be right, or that hold nothing to explain, are said to be so: a note names
// what is impossible, and no regime, tax or what-if is built on it.
#include "core/probe/traceopen.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/traceexplanation.h"
#include "core/trace/tracetable.h"
#include "core/trace/tracewhatif.h"
#include "core/trace/tracewhatiftable.h"

#include "tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>

using namespace synctax;

namespace {

const std::string kH200 = SYNCTAX_TEST_DATA "/traces/torch-2.11-h200";

struct Read {
    KinetoTrace trace;
    TraceReport report;
    ImportedLoop loop;
};

Read analysed(const KinetoTrace& trace)
{
    Read r { trace, analyseTrace(trace), {} };
    r.loop = importedLoop(r.trace, r.report, ImportedLoopOptions {});
    return r;
}

// The committed recording with each event changed by `change`, read as the reader reads a file.
Read changed(const std::string& path, const std::function<void(nlohmann::json&)>& change)
{
    std::ifstream in(path);
    nlohmann::json trace = nlohmann::json::parse(in);
    for (auto& e : trace.at("traceEvents"))
        change(e);
    const TraceReadResult read = readKinetoTraceText(trace.dump(), path);
    EXPECT_TRUE(read.trace) << (read.error ? read.error->format() : "");
    return analysed(read.trace ? *read.trace : KinetoTrace {});
}

Read opened(const std::string& path)
{
    OpenTraceResult r = openTrace(path, OpenTraceOptions {});
    EXPECT_TRUE(r.opened) << r.error;
    if (!r.opened)
        return {};
    return { std::move(r.opened->trace), std::move(r.opened->report), std::move(r.opened->loop) };
}

bool isGpuEvent(const nlohmann::json& e)
{
    const std::string cat = e.value("cat", "");
    return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "gpu_user_annotation";
}

size_t notesWith(const TraceReport& r, const std::string& words)
{
    return size_t(std::count_if(
        r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; }));
}

bool contains(const std::string& text, const std::string& words) { return text.find(words) != std::string::npos; }

// What an impossible trace may still say: the note, and that nothing is told from it.
void expectNothingToldFrom(const Read& r)
{
    const TraceExplanation e = explainTrace(r.report);
    EXPECT_TRUE(contains(e.regime, "cannot happen")) << e.regime;
    EXPECT_TRUE(e.tax.empty()) << e.tax;
    EXPECT_TRUE(e.worstSite.empty()) << e.worstSite;
    const std::string text = formatTraceReport(r.report);
    for (const char* figure :
        { "D ms   G ms", "sync site", "regime dispatch", "regime gpu", "regime balanced", "Syncs cost", "-bound" })
        EXPECT_FALSE(contains(text, figure)) << figure << " in\n" << text;
    EXPECT_FALSE(r.loop.available);
    const std::string whatIf = formatWhatIfTable(r.loop, synctax::whatIf(r.loop, 0));
    EXPECT_FALSE(contains(whatIf, "known to within")) << whatIf;
    EXPECT_TRUE(contains(whatIf, "not available")) << whatIf;
}

} // namespace

TEST(TraceImpossible, KernelsASecondBeforeTheirLaunchesAreSaidAndNothingIsToldFromThem)
{
    const Read r = changed(kH200 + "/tiny_mlp-item-nostack.json", [](nlohmann::json& e) {
        if (isGpuEvent(e))
            e["ts"] = e.at("ts").get<double>() - 1e6;
    });
    ASSERT_EQ(notesWith(r.report, "cannot"), 1u) << ::testing::PrintToString(r.report.notes);
    const std::string& note = r.report.notes.front(); // said first
    EXPECT_TRUE(contains(note, "start before the launch call that queued them")) << note;
    EXPECT_TRUE(contains(note, "1000 ms before")) << note;
    expectNothingToldFrom(r);
}

TEST(TraceImpossible, TimeRunningBackwardsIsSaid)
{
    const Read r = changed(kH200 + "/tiny_mlp-item-nostack.json", [](nlohmann::json& e) {
        if (e.contains("ts"))
            e["ts"] = -e.at("ts").get<double>();
    });
    ASSERT_FALSE(r.report.notes.empty());
    EXPECT_TRUE(contains(r.report.notes.front(), "before the launch call")) << r.report.notes.front();
    expectNothingToldFrom(r);
}

TEST(TraceImpossible, OneCorrelationIdForEveryLaunchIsSaid)
{
    const Read r = changed(kH200 + "/tiny_mlp-item-nostack.json", [](nlohmann::json& e) {
        if (e.contains("args") && e.at("args").contains("correlation"))
            e["args"]["correlation"] = 1;
    });
    ASSERT_EQ(notesWith(r.report, "cannot"), 1u) << ::testing::PrintToString(r.report.notes);
    EXPECT_TRUE(contains(r.report.notes.front(), "194 launch calls share their correlation id"))
        << r.report.notes.front();
    expectNothingToldFrom(r);
}

TEST(TraceImpossible, NeverSaidOfTheRecordedTraces)
{
    for (const char* name : { "/tiny_mlp-item-nostack.json", "/tiny_mlp-item.pt.trace.json.gz",
             "/small_resnet-mixed.pt.trace.json.gz", "/resnet50-host15-item.pt.trace.json.gz" }) {
        const Read r = opened(kH200 + name);
        EXPECT_EQ(notesWith(r.report, "cannot"), 0u) << name << ": " << ::testing::PrintToString(r.report.notes);
        EXPECT_TRUE(r.loop.available) << name;
    }
}

TEST(TraceImpossible, ACpuOnlyTraceGetsNoRegimeStory)
{
    const Read r = opened(SYNCTAX_TEST_DATA "/traces/hta/cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
    const TraceExplanation e = explainTrace(r.report);
    EXPECT_TRUE(contains(e.regime, "no GPU work")) << e.regime;
    for (const char* story : { "-bound", "Balanced", "ms of GPU work" })
        EXPECT_FALSE(contains(e.regime, story)) << e.regime;
    EXPECT_FALSE(contains(formatTraceReport(r.report), "regime dispatch_bound"));
    EXPECT_TRUE(r.report.regime.label.empty()) << r.report.regime.label;
}

TEST(TraceImpossible, AnEmptyTraceGetsNoRegimeStoryAndOneNote)
{
    const Read r = opened(SYNCTAX_TEST_DATA "/traces/bad/empty-events.json");
    const TraceExplanation e = explainTrace(r.report);
    EXPECT_TRUE(contains(e.regime, "holds no events")) << e.regime;
    EXPECT_TRUE(e.tax.empty()) << e.tax;
    EXPECT_EQ(r.report.notes, std::vector<std::string> { "traceEvents is empty: the trace holds no events" });
    EXPECT_FALSE(contains(formatTraceReport(r.report), "-bound"));
}

TEST(TraceImpossible, LaunchesWithoutGpuWorkAreSaidOnceAndNotCalledNoLaunches)
{
    // 103 launch calls and 21 syncs, recorded without CUPTI's activity records: no GPU events.
    const Read r
        = opened(SYNCTAX_TEST_DATA "/traces/hta/cupti_profiler_benchmark_result_924719_1679055439_trace.json.gz");
    ASSERT_EQ(r.report.steps.size(), 1u);
    EXPECT_EQ(r.report.steps[0].launches, 103);
    EXPECT_EQ(notesWith(r.report, "no GPU events"), 1u) << ::testing::PrintToString(r.report.notes);
    EXPECT_EQ(notesWith(r.report, "without their GPU work") + notesWith(r.report, "without a GPU op"), 1u)
        << ::testing::PrintToString(r.report.notes);
    EXPECT_EQ(std::set<std::string>(r.report.notes.begin(), r.report.notes.end()).size(), r.report.notes.size());
    EXPECT_FALSE(r.loop.available);
    EXPECT_FALSE(contains(r.loop.reason, "launch no GPU work")) << r.loop.reason;
    EXPECT_TRUE(contains(r.loop.reason, "103 launches")) << r.loop.reason;
    // 21 syncs a step, and nothing on the GPU to wait for: no sentence says they leave it idle.
    const TraceExplanation e = explainTrace(r.report);
    EXPECT_FALSE(contains(e.tax, "leave the GPU idle")) << e.tax;
    EXPECT_FALSE(contains(e.tax, "Syncs cost")) << e.tax;
    EXPECT_TRUE(contains(e.tax, "21.00 syncs per step")) << e.tax;
    EXPECT_TRUE(e.worstSite.empty()) << e.worstSite;
}

TEST(TraceImpossible, SyncsThatLeaveTheGpuBusyAreNotSaidToLeaveItIdle)
{
    // Stream 8 runs 100-900: the item's sync returns at 310 with the GPU still busy, no bubble.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000)
        .kernel(50, 10, 1, 100, 800, TraceBuilder::stream8)
        .op("aten::item", 280, 40)
        .sync("cudaStreamSynchronize", 291, 19)
        .kernel(400, 10, 4, 950, 10);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.syncs.size(), 1u);
    const TraceExplanation e = explainTrace(r);
    EXPECT_FALSE(contains(e.tax, "leave the GPU idle")) << e.tax;
    EXPECT_TRUE(contains(e.tax, "none left the GPU idle")) << e.tax;
}
