#include "core/config/configloader.h"
#include "core/engine/experimentrunner.h"
#include "core/gpu/gputimeline.h"
#include "core/queuemodel/regime.h"
#include "core/files/resultsjson.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(QueueSamples, CountStepsStillQueuedWhenEachFinishedDispatching)
{
    // Host dispatches a step every 1 ms; the GPU needs 3 ms per step: the queue grows.
    std::vector<int64_t> dispatched, completed;
    for (int i = 0; i < 5; ++i) {
        dispatched.push_back(1'000'000 * (i + 1));
        completed.push_back(3'000'000 * (i + 1));
    }
    const auto q = queueSamples(dispatched, completed);
    ASSERT_EQ(q.size(), 5u);
    EXPECT_DOUBLE_EQ(q[0].lagMs, 2.0);
    EXPECT_DOUBLE_EQ(q[4].lagMs, 10.0);
    EXPECT_EQ(q[0].queueSteps, 1);
    EXPECT_EQ(q[1].queueSteps, 2); // at 2 ms nothing has completed yet
    EXPECT_EQ(q[2].queueSteps, 2); // at 3 ms step 0 completes: steps 1 and 2 remain
    EXPECT_EQ(q[3].queueSteps, 3);
    EXPECT_EQ(q[4].queueSteps, 4);
}

TEST(QueueSamples, ASyncEveryStepKeepsOneStepQueued)
{
    // Each step completes before the next is dispatched, as with .item() after every step.
    const std::vector<int64_t> dispatched { 10, 30, 50 }, completed { 20, 40, 60 };
    for (const auto& q : queueSamples(dispatched, completed))
        EXPECT_EQ(q.queueSteps, 1);
}

TEST(QueueSamples, UnknownCompletionsAreNotCounted) { EXPECT_TRUE(queueSamples({ 1, 2 }, {}).empty()); }

TEST(Regime, LabelsFollowTheDocumentedRule)
{
    EXPECT_EQ(classifyRegime(1.0, 0.2, 0), "dispatch_bound");
    EXPECT_EQ(classifyRegime(1.0, 30.0, 0), "gpu_bound");
    EXPECT_EQ(classifyRegime(1.0, 1.1, 0), "balanced");
    EXPECT_EQ(classifyRegime(1.0, 4.0, 3000), "balanced"); // host work counts with dispatch
    EXPECT_EQ(classifyRegime(1.0, 1.25, 0), "gpu_bound");
}

TEST(Regime, CpuRunsSayThereIsNoQueue)
{
    ExperimentConfig c;
    c.device = "cpu";
    c.stepsPerBlock = 2;
    c.blocks = 2;
    c.warmupMaxSteps = 0;
    c.observerControl = true;
    c.models = { ModelSpec { "tiny_mlp", 4, 8, 8, 3 } };
    c.styles = { { "none", 0 }, { "item", 0 } };
    ExperimentRunner runner(c);
    const auto r = runner.run(std::atomic<bool> { false });
    ASSERT_EQ(r.cells.size(), 4u); // none, aa_control, none_no_events, item
    EXPECT_EQ(r.cells[2].style, "none_no_events");
    EXPECT_TRUE(r.cells[2].overheadPct.has_value());
    const auto& g = r.groups.at(0);
    EXPECT_FALSE(g.regime.available);
    EXPECT_EQ(g.regime.reason, "no asynchronous queue on CPU");
    for (const auto& cell : r.cells) {
        EXPECT_FALSE(cell.queue) << cell.style;
        EXPECT_FALSE(cell.syncsPerStep) << cell.style;
        EXPECT_EQ(cell.graphReplays, -1);
    }
    const auto json = toJson(r);
    EXPECT_EQ(json["groups"][0]["regime"]["reason"], "no asynchronous queue on CPU");
    EXPECT_TRUE(json["cells"][3]["queue"].is_null());
    EXPECT_TRUE(json["cells"][3]["syncs_per_step"].is_null());
}

TEST(Regime, EventsCanBeSwitchedOffButNotWhileObserving)
{
    auto ok = loadConfigText("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\ngpu_events: false\n", "t.yaml");
    ASSERT_TRUE(ok.config) << formatErrors(ok.errors);
    EXPECT_FALSE(ok.config->gpuEvents);
    auto bad = loadConfigText(
        "synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\ngpu_events: false\nobserver_control: true\n", "t.yaml");
    EXPECT_FALSE(bad.config);
    auto type = loadConfigText("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\ngpu_events: sometimes\n", "t.yaml");
    ASSERT_EQ(type.errors.size(), 1u);
    EXPECT_EQ(type.errors[0].format(), "t.yaml:4:13: gpu_events: expected true or false, found 'sometimes'");
}
