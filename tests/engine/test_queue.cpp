#include "core/engine/run/experimentrunner.h"
#include "core/results/resultsjson.h"

#include <gtest/gtest.h>

using namespace synctax;

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
