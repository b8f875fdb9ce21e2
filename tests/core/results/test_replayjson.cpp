#include "core/results/replayjson.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(ReplayJson, ACapturedReplayRoundTrips)
{
    CapturedReplay r;
    r.traceFile = "/tmp/resnet50-eager.pt.trace.json";
    r.capturedSteps = 6;
    r.dispatchMs = 27.5;
    r.drainMs = 33.75;
    r.drainMedianMs = 35.5;
    r.profiledHostMs = 42.25;
    r.calibration.perEventUs = 1.5;
    r.calibration.perEventOffLoopUs = 0.75;
    r.calibration.splitDrainShortUs = 125;
    r.calibration.evenFirst = true;
    r.calibration.hostScale = 0.66;
    r.calibration.gpuGapUs = 1.25;
    r.calibration.how = "host x 0.66";
    r.baselineHostScale = 1.17;
    r.idleStartUs = 412.5;
    r.costs.syncUs = 9.5;
    r.costs.afterSyncUs = 14.25;
    r.costs.afterSyncPairs = 1000;
    r.costs.source = "measured on cuda:0";
    r.costs.measured["item"] = { 31.5, 0.0, 11.25 };
    r.costs.measured["progress_bar"] = { 0.0, 0.125 };
    r.regime = { 27.5, 33.25, "balanced" };
    r.step.stepHostUs = 27500;
    r.step.ops = { { 0, 4.5, 2.5, 7 }, { 10.5, 4.25, 30000, 7 } };
    r.step.hostEventUs = { 0.0, 3.25, 10.5 };
    r.step.hostEventOffLoop = { 0, 1, 0 };
    std::string error;
    const auto back = replayFromJson(replayToJson(r), error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->traceFile, r.traceFile);
    EXPECT_EQ(back->capturedSteps, 6);
    EXPECT_DOUBLE_EQ(back->calibration.gpuGapUs, 1.25);
    EXPECT_DOUBLE_EQ(back->calibration.perEventUs, 1.5);
    ASSERT_TRUE(back->calibration.perEventOffLoopUs);
    EXPECT_DOUBLE_EQ(*back->calibration.perEventOffLoopUs, 0.75);
    EXPECT_DOUBLE_EQ(back->calibration.splitDrainShortUs, 125);
    EXPECT_TRUE(back->calibration.evenFirst);
    // Without a split (and in files from before it), the other threads cost what the loop's do.
    r.calibration.perEventOffLoopUs.reset();
    r.calibration.splitDrainShortUs = 0;
    const auto even = replayFromJson(replayToJson(r), error);
    ASSERT_TRUE(even) << error;
    EXPECT_FALSE(even->calibration.perEventOffLoopUs);
    EXPECT_DOUBLE_EQ(even->calibration.splitDrainShortUs, 0);
    EXPECT_DOUBLE_EQ(back->baselineHostScale, 1.17);
    EXPECT_DOUBLE_EQ(back->drainMs, 33.75);
    EXPECT_DOUBLE_EQ(back->drainMedianMs, 35.5);
    EXPECT_DOUBLE_EQ(back->idleStartUs, 412.5);
    EXPECT_DOUBLE_EQ(back->costs.measured.at("item").readUs, 31.5);
    EXPECT_DOUBLE_EQ(back->costs.measured.at("item").readAfterSynchronizeUs, 11.25);
    EXPECT_DOUBLE_EQ(back->costs.measured.at("progress_bar").readAfterSynchronizeUs, 0);
    EXPECT_DOUBLE_EQ(back->costs.afterSyncUs, 14.25);
    EXPECT_EQ(back->costs.afterSyncPairs, 1000);
    EXPECT_EQ(back->regime.label, "balanced");
    ASSERT_EQ(back->step.ops.size(), 2u);
    EXPECT_DOUBLE_EQ(back->step.ops[1].gpuUs, 30000);
    EXPECT_EQ(back->step.ops[1].stream, 7);
    EXPECT_EQ(back->step.hostEventUs, r.step.hostEventUs);
    EXPECT_EQ(back->step.hostEventOffLoop, r.step.hostEventOffLoop);
}

TEST(ReplayJson, TheStepsHostEventsAreCheckedWhereTheFileHasThem)
{
    CapturedReplay r;
    r.step.ops = { { 0, 1, 2, 7 } };
    r.step.hostEventUs = { 0.0, 0.5 };
    r.step.hostEventOffLoop = { 0, 1 };
    std::string error;
    nlohmann::json j = replayToJson(r);
    j["step"]["host_events_off_loop"] = { 0 };
    EXPECT_FALSE(replayFromJson(j, error));
    EXPECT_EQ(error, "/step/host_events_off_loop: expected an array of 2 (one per host event)");
    j["step"]["host_events_off_loop"] = { 0, 2 };
    EXPECT_FALSE(replayFromJson(j, error));
    EXPECT_EQ(error, "/step/host_events_off_loop/1: expected 0 or 1");
    j["step"]["host_events_us"] = { 0.5, 0.25 };
    EXPECT_FALSE(replayFromJson(j, error));
    EXPECT_EQ(error, "/step/host_events_us/1: expected a number, not below the one before");
    // Files from before the events were kept have none: the step reads without them.
    j["step"].erase("host_events_us");
    j["step"].erase("host_events_off_loop");
    const auto older = replayFromJson(j, error);
    ASSERT_TRUE(older) << error;
    EXPECT_TRUE(older->step.hostEventUs.empty());
    EXPECT_TRUE(older->step.hostEventOffLoop.empty());
}

TEST(ReplayJson, AMalformedOpSaysWhere)
{
    CapturedReplay r;
    r.step.ops = { { 0, 1, 2, 7 } };
    nlohmann::json j = replayToJson(r);
    j["step"]["ops"][0] = { 1, 2 };
    std::string error;
    EXPECT_FALSE(replayFromJson(j, error));
    EXPECT_EQ(error, "/step/ops/0: expected 4 numbers [issue_us, host_us, gpu_us, stream]");
    // Files from before the drain was measured read as not measured.
    // So do files from before the host's slowdown after a read was: nothing charged for it.
    r.drainMs = 12.5;
    r.idleStartUs = 250;
    r.costs.afterSyncUs = 14.25;
    r.costs.afterSyncPairs = 1000;
    j = replayToJson(r);
    j.erase("drain_ms");
    j.erase("drain_median_ms");
    j.erase("idle_start_us");
    j.erase("after_sync_us");
    j.erase("after_sync_pairs");
    const auto older = replayFromJson(j, error);
    ASSERT_TRUE(older) << error;
    EXPECT_DOUBLE_EQ(older->drainMs, 0);
    EXPECT_DOUBLE_EQ(older->drainMedianMs, 0);
    EXPECT_DOUBLE_EQ(older->idleStartUs, 0);
    EXPECT_DOUBLE_EQ(older->costs.afterSyncUs, 0);
    EXPECT_EQ(older->costs.afterSyncPairs, 0);
    j.erase("calibration");
    EXPECT_FALSE(replayFromJson(j, error));
    EXPECT_EQ(error, "/calibration: missing");
}
