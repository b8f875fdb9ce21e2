#include "core/results/resultsdiff.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

ExperimentResult sample()
{
    ExperimentResult r;
    r.environment.device = "cuda:0";
    r.environment.deviceName = "NVIDIA H200";
    CellResult base;
    base.model = "tiny_mlp";
    base.mode = "eager";
    base.style = "none";
    base.stepMs.mean = 1.0;
    CellResult item = base;
    item.style = "item";
    item.stepMs.mean = 1.05;
    item.overheadPct = Interval { 5.0, 4.0, 6.0 };
    r.cells = { base, item };
    return r;
}

} // namespace

TEST(ResultsDiff, AFileAgainstItselfHasNoDifferences)
{
    const ResultsDiff d = diffResults(sample(), sample());
    EXPECT_TRUE(d.identical());
    EXPECT_EQ(formatDiff(d), "no differences\n");
}

TEST(ResultsDiff, ShowsDifferencesOverlapAndEnvironment)
{
    ExperimentResult b = sample();
    b.environment.deviceName = "NVIDIA H100";
    b.cells[1].overheadPct = Interval { 8.0, 7.0, 9.0 };
    CellResult extra = b.cells[0];
    extra.style = "progress_bar";
    b.cells.push_back(extra);
    const ResultsDiff d = diffResults(sample(), b);
    EXPECT_FALSE(d.identical());
    ASSERT_EQ(d.environment.size(), 1u);
    EXPECT_EQ(d.environment[0].field, "device_name");
    ASSERT_EQ(d.cells.size(), 3u);
    EXPECT_TRUE(d.cells[0].same());
    EXPECT_FALSE(d.cells[1].intervalsOverlap()); // [4, 6] and [7, 9]
    EXPECT_TRUE(d.cells[2].onlyInB);
    const std::string text = formatDiff(d);
    EXPECT_NE(text.find("environment device_name: NVIDIA H200  |  NVIDIA H100"), std::string::npos) << text;
    EXPECT_NE(text.find("+3.00  DISJOINT"), std::string::npos) << text;
    EXPECT_NE(text.find("tiny_mlp/eager/progress_bar: only in B"), std::string::npos) << text;
}

TEST(ResultsDiff, OverlappingIntervalsAreSaidSo)
{
    ExperimentResult b = sample();
    b.cells[1].overheadPct = Interval { 5.5, 4.5, 6.5 };
    const ResultsDiff d = diffResults(sample(), b);
    EXPECT_TRUE(d.cells[1].intervalsOverlap());
    EXPECT_NE(formatDiff(d).find("overlap"), std::string::npos);
}

// A sync's tax moves with the loop's speed: a diff says when a model's baseline ran at another
// speed than the A/A noise floors allow, with both regimes.
TEST(ResultsDiff, SaysWhenTheBaselineRanAtAnotherSpeed)
{
    ExperimentResult a = sample();
    GroupResult g;
    g.model = "tiny_mlp";
    g.mode = "eager";
    g.noiseFloorPct = 1.5;
    g.regime.available = true;
    g.regime.dMs = 0.9;
    g.regime.gMs = 0.8;
    g.regime.label = "balanced";
    a.groups = { g };

    ExperimentResult b = a;
    b.cells[0].stepMs.mean = 1.012; // +1.2%: under the floor
    ResultsDiff d = diffResults(a, b);
    ASSERT_EQ(d.groups.size(), 1u);
    EXPECT_NEAR(d.groups[0].baselineChangePct(), 1.2, 1e-9);
    EXPECT_FALSE(d.groups[0].speedMoved());
    EXPECT_EQ(formatDiff(d).find("another speed"), std::string::npos) << formatDiff(d);

    b.cells[0].stepMs.mean = 0.92; // 8% faster
    b.groups[0].regime.dMs = 0.75;
    b.groups[0].regime.label = "gpu_bound";
    d = diffResults(a, b);
    EXPECT_TRUE(d.groups[0].speedMoved());
    const std::string text = formatDiff(d);
    EXPECT_NE(text.find("tiny_mlp/eager: baseline 1.000 -> 0.920 ms/step (-8.0%, noise floor 1.5%); D 0.90 -> 0.75 ms"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("balanced -> gpu_bound: the loop ran at another speed"), std::string::npos) << text;

    b.groups[0].noiseFloorPct = 9.0; // a noisier run B: 8% is within its floor
    EXPECT_FALSE(diffResults(a, b).groups[0].speedMoved());
    b.groups.clear(); // a model measured in one run only has nothing to compare
    EXPECT_TRUE(diffResults(a, b).groups.empty());
}

// Two runs of different configs differ for that reason first: the keys that differ come before the
// cells, top-level and per model, each once.
TEST(ResultsDiff, ListsTheConfigKeysThatDiffer)
{
    ExperimentResult a = sample();
    a.config.models = { ModelSpec { "tiny_mlp", 32, 512, 256, 10 }, ModelSpec { "resnet50", 8, 0, 224, 1000 } };
    a.config.styles = { { "none", 0 }, { "item", 0 } };
    ExperimentResult b = a;
    EXPECT_TRUE(diffResults(a, b).config.empty());

    b.config.models[0].batch = 4;
    b.config.seed = 7;
    b.config.warmupMinSteps = 50;
    b.config.stepsPerBlock = 100; // both models follow it: one line, not three
    b.config.models[1].stepsPerBlock = 50; // ... but resnet50 keeps its 50 steps: no line for it
    b.config.styles.push_back({ "item_every_n", 10 });
    const ResultsDiff d = diffResults(a, b);
    std::vector<std::string> keys;
    for (const auto& c : d.config)
        keys.push_back(c.key);
    EXPECT_EQ(
        keys, (std::vector<std::string> { "seed", "steps_per_block", "styles", "warmup.min_steps", "tiny_mlp.batch" }));
    const std::string text = formatDiff(d);
    const size_t batch = text.find("config tiny_mlp.batch: 32  |  4\n");
    EXPECT_NE(batch, std::string::npos) << text;
    EXPECT_LT(batch, text.find("cell ")) << text;
    EXPECT_NE(text.find("config seed: 1  |  7\n"), std::string::npos) << text;
    EXPECT_NE(text.find("config warmup.min_steps: 20  |  50\n"), std::string::npos) << text;
    EXPECT_NE(text.find("config styles: none, item  |  none, item, item_every_n (n=10)\n"), std::string::npos) << text;

    // The same cells and environment: the config alone makes the runs differ.
    ExperimentResult c = a;
    c.config.models[0].batch = 4;
    EXPECT_FALSE(diffResults(a, c).identical());
    EXPECT_NE(formatDiff(diffResults(a, c)), "no differences\n");

    ExperimentResult d2 = a;
    d2.config.models.pop_back();
    const ResultsDiff fewer = diffResults(a, d2);
    ASSERT_EQ(fewer.config.size(), 1u);
    EXPECT_EQ(fewer.config[0].key, "models");
    EXPECT_EQ(fewer.config[0].a, "tiny_mlp, resnet50");
    EXPECT_EQ(fewer.config[0].b, "tiny_mlp");
}
