// A loop that syncs every step as users write it (tests/data/traces/torch-2.11-h200/item-every-step:
// torchvision's ResNet-50, `loss.item()` after `optimizer.step()`, before `prof.step()`, no stacks):
// the what-if replays the whole step, every launch of it whatever the sync in it, and removing the
// sync saves what the same loop's unprofiled paired measurement (measurements/measured.json) says it costs.
#include "core/probe/traceopen.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <vector>

using namespace synctax;

namespace {

const std::string kDir = SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/item-every-step";

} // namespace

TEST(ItemEveryStep, TheReplayHoldsEveryLaunchOfTheStep)
{
    const OpenTraceResult opened = openTrace(kDir + "/resnet50-item-every-step.pt.trace.json.gz", {});
    ASSERT_TRUE(opened.opened) << opened.error;
    const TraceReport& report = opened.opened->report;
    const ImportedLoop& loop = opened.opened->loop;
    ASSERT_TRUE(loop.available) << loop.reason;
    ASSERT_FALSE(report.steps.empty());
    std::vector<std::int64_t> launches;
    for (const TraceStep& s : report.steps)
        launches.push_back(s.launches);
    std::sort(launches.begin(), launches.end());
    EXPECT_EQ(std::int64_t(loop.base.ops.size()), launches[launches.size() / 2]);
    EXPECT_EQ(loop.base.ops.size(), loop.recorded.ops.size());
    EXPECT_EQ(loop.recordedSyncsPerStep, 1.0);
}

TEST(ItemEveryStep, RemovingTheSyncSavesWhatTheLoopMeasuredWithinThreePoints)
{
    std::ifstream in(kDir + "/measurements/measured.json");
    ASSERT_TRUE(in);
    const nlohmann::json measured = nlohmann::json::parse(in);
    // The loop as recorded (with its sync), timed unprofiled: the median of its blocks.
    std::vector<double> itemMs;
    for (const nlohmann::json& r : measured.at("rounds"))
        itemMs.push_back(r.at("item_ms").get<double>());
    std::sort(itemMs.begin(), itemMs.end());
    OpenTraceOptions options;
    options.loop.stepMs = itemMs[itemMs.size() / 2];
    const OpenTraceResult opened = openTrace(kDir + "/resnet50-item-every-step.pt.trace.json.gz", options);
    ASSERT_TRUE(opened.opened) << opened.error;
    const WhatIf w = whatIf(opened.opened->loop, 0);
    ASSERT_FALSE(w.rows.empty());
    ASSERT_EQ(w.rows.front().style, "as_recorded");
    EXPECT_NEAR(w.rows.front().taxPct, measured.at("item_tax_pct").get<double>(), 3.0) << w.model;
}
