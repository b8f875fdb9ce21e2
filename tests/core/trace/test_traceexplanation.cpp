#include "core/trace/traceexplanation.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

// A hand-built report of a two-step GPU-bound loop: one .item() per step waiting 4 ms and
// leaving the GPU idle 0.8 ms of a 10 ms step (8%), and a cheaper nonzero site.
TraceReport itemLoop()
{
    TraceReport r;
    r.stepsMarked = true;
    r.steps.resize(2);
    r.meanStepMs = 10.0;
    r.taxPct = 8.5;
    r.regime = { 1.0, 7.0, 1.5, 1.5, "gpu_bound", "" };
    r.sites.push_back({ "aten::item", std::string("train.py(87): <module>"), 2, 1.0, 4.0, 0.8, 8.0 });
    r.sites.push_back({ "aten::nonzero", std::nullopt, 1, 0.5, 0.25, 0.05, 0.5 });
    TraceSync item;
    item.api = "cudaMemcpyAsync";
    item.site = 0;
    r.syncs.push_back(item);
    r.notes = { "recorded without a GPU" };
    return r;
}

} // namespace

TEST(TraceExplanation, SaysRegimeTaxWorstSiteAndRemedyInThisLoopsNumbers)
{
    const TraceExplanation e = explainTrace(itemLoop());
    // No sentence in the report: the regime's own sentence, from G = 7 and D + H = 2.5.
    EXPECT_EQ(e.regime.rfind("GPU-bound: the GPU is busy 7.00 ms per step and the host needs only 2.50 ms", 0), 0u)
        << e.regime;
    EXPECT_EQ(
        e.tax, "Syncs cost 8.5% of the step time: 1.50 per step leave the GPU idle, in steps of 10.0 ms on average.");
    EXPECT_EQ(e.worstSite,
        "The worst site is aten::item at train.py(87): <module>: 1.00 per step, the host waits 4.00 ms and the GPU "
        "then idles 0.800 ms per step, 8.0% of the step.");
    EXPECT_EQ(e.remedy.rfind("What to try: Keep the value on the GPU", 0), 0u) << e.remedy;
    EXPECT_EQ(e.otherSites, "1 other site costs less; the site table lists each.");
    EXPECT_EQ(e.notes, std::vector<std::string> { "recorded without a GPU" });
    EXPECT_EQ(e.paragraphs(), (std::vector<std::string> { e.regime, e.tax, e.worstSite, e.remedy, e.otherSites }));
}

TEST(TraceExplanation, ReportsSentenceIsKeptAndMissingStackIsSaid)
{
    TraceReport r = itemLoop();
    r.regime.sentence = "Its own sentence.";
    r.sites.erase(r.sites.begin());
    r.syncs.clear();
    const TraceExplanation e = explainTrace(r);
    EXPECT_EQ(e.regime, "Its own sentence.");
    EXPECT_NE(e.worstSite.find("aten::nonzero (the trace has no Python stacks: record with with_stack=True"),
        std::string::npos)
        << e.worstSite;
    EXPECT_NE(e.remedy.find("nonzero_static"), std::string::npos);
    EXPECT_TRUE(e.otherSites.empty());
}

TEST(TraceExplanation, NoSyncLeavesNoSiteParagraphs)
{
    TraceReport r = itemLoop();
    r.sites.clear();
    r.syncs.clear();
    r.regime.syncsPerStep = 0;
    const TraceExplanation e = explainTrace(r);
    EXPECT_EQ(e.tax,
        "No sync inside the steps: over 2 steps of 10.0 ms on average, the host never waited for the GPU. There is no "
        "tax to remove.");
    EXPECT_EQ(e.paragraphs().size(), 2u);
    EXPECT_EQ(
        explainTrace(TraceReport {}).paragraphs(), std::vector<std::string> { "The trace has no step to explain." });
}

TEST(TraceExplanation, RemedyFollowsTheOpAndTheCopyDirection)
{
    EXPECT_NE(syncRemedy("aten::_local_scalar_dense", "").find(".item() every N steps"), std::string::npos);
    EXPECT_NE(syncRemedy("cudaDeviceSynchronize", "").find("CUDA events"), std::string::npos);
    EXPECT_NE(syncRemedy("aten::foo", "blocking cudaMemcpyAsync (DtoH pageable)").find("non_blocking=True"),
        std::string::npos);
    EXPECT_NE(syncRemedy("aten::is_nonzero", "").find("Python bool"), std::string::npos);
    EXPECT_NE(syncRemedy("aten::foo", "cudaStreamSynchronize").find("read it less often"), std::string::npos);
}
