#include "core/config/configloader.h"
#include "core/config/presets.h"
#include "core/config/stylecatalog.h"
#include "core/config/sweepgrid.h"

#include <gtest/gtest.h>

#include <tuple>

using namespace synctax;

namespace {

ExperimentConfig preset(const std::string& name)
{
    auto text = presetText(name);
    EXPECT_TRUE(text.has_value()) << name;
    auto r = loadConfigText(text.value_or(""), "preset:" + name);
    EXPECT_TRUE(r.errors.empty()) << formatErrors(r.errors);
    return r.config.value_or(ExperimentConfig {});
}

} // namespace

TEST(Presets, EveryPresetIsValid)
{
    const auto names = presetNames();
    EXPECT_EQ(names,
        (std::vector<std::string> { "cpu-quick", "cpu-seed", "ddp", "ddp-all-ranks", "ddp-cpu", "middle-regime",
            "observer", "regimes", "seed", "seed-graphs", "seed-tiny", "sins" }));
    for (const auto& name : names) {
        auto c = preset(name);
        EXPECT_EQ(c.name, name);
        EXPECT_FALSE(c.description.empty()) << name;
    }
}

TEST(Presets, TheDataParallelPresetsRunTwoRanks)
{
    const std::vector<std::string> styles { "none", "item", "progress_bar_postfix" };
    for (const auto& [name, backend, syncOn] : { std::tuple { "ddp", CollectiveBackend::Nccl, SyncOn::Rank0 },
             std::tuple { "ddp-all-ranks", CollectiveBackend::Nccl, SyncOn::All },
             std::tuple { "ddp-cpu", CollectiveBackend::Gloo, SyncOn::Rank0 } }) {
        SCOPED_TRACE(name);
        const auto c = preset(name);
        ASSERT_TRUE(c.distributed);
        EXPECT_EQ(c.distributed->ranks, 2);
        EXPECT_EQ(c.distributed->backend, backend);
        EXPECT_EQ(c.distributed->syncOn, syncOn);
        std::vector<std::string> names;
        for (const auto& s : c.styles)
            names.push_back(s.name);
        EXPECT_EQ(names, styles);
    }
    std::vector<std::string> models;
    for (const auto& m : preset("ddp").models)
        models.push_back(m.name);
    EXPECT_EQ(models, (std::vector<std::string> { "small_resnet", "resnet50" }));
    EXPECT_EQ(preset("ddp-cpu").device, "cpu");
}

TEST(Presets, SeedIsThreeModelsBySevenStylesEager)
{
    auto c = preset("seed");
    EXPECT_EQ(c.models.size(), 3u);
    EXPECT_EQ(c.styles.size(), 7u);
    EXPECT_EQ(c.modes, std::vector<Mode> { Mode::Eager });
}

TEST(Presets, SeedTinyAndCpuQuickCoverEveryStyle)
{
    for (const char* name : { "seed-tiny", "cpu-quick" }) {
        auto c = preset(name);
        ASSERT_EQ(c.styles.size(), styleCatalog().size()) << name;
        for (size_t i = 0; i < c.styles.size(); ++i)
            EXPECT_EQ(c.styles[i].name, styleCatalog()[i].name);
    }
    EXPECT_EQ(preset("cpu-quick").models.size(), 3u);
    EXPECT_EQ(preset("cpu-quick").device, "cpu");
}

TEST(Presets, SeedGraphsComparesEagerWithGraphs)
{
    auto c = preset("seed-graphs");
    EXPECT_EQ(c.modes, (std::vector<Mode> { Mode::Eager, Mode::CudaGraph }));
    EXPECT_EQ(c.models.size(), 2u);
}

TEST(Presets, MiddleRegimeSweepsResNet50sHostWorkWithinSevenMinutes)
{
    const ExperimentConfig c = preset("middle-regime");
    ASSERT_EQ(c.models.size(), 1u);
    EXPECT_EQ(c.models[0].name, "resnet50");
    EXPECT_EQ(c.modes, std::vector<Mode> { Mode::Eager });
    ASSERT_EQ(c.styles.size(), 2u);
    EXPECT_EQ(c.styles[0].name, "none");
    EXPECT_EQ(c.styles[1].name, "item");
    EXPECT_EQ(c.stepsPerBlockFor(c.models[0]), 5);
    ASSERT_TRUE(c.sweep);
    EXPECT_EQ(c.sweep->hostWorkUs, (std::vector<int64_t> { 0, 5000, 10000, 15000, 20000, 30000, 45000 }));
    EXPECT_TRUE(c.sweep->batch.empty());
    // Each group ends at its time budget at the latest, warm-up included: seven of them leave room
    // within seven minutes for building the model and analysing each group.
    const std::vector<ModelSpec> groups = sweepGrid(c);
    ASSERT_EQ(groups.size(), 7u);
    double budgetS = 0;
    for (const ModelSpec& g : groups)
        budgetS += c.timeBudgetSFor(g) * double(c.modes.size());
    EXPECT_LE(budgetS, 6 * 60.0);
}

TEST(Presets, DefaultDependsOnCuda)
{
    EXPECT_EQ(defaultPresetName(true), "seed");
    EXPECT_EQ(defaultPresetName(false), "cpu-seed"); // cpu-quick is the smoke run: too few rounds to tell styles apart
}

TEST(Presets, EveryPresetSaysWhatItIsSizedFor)
{
    for (const auto& name : presetNames())
        EXPECT_TRUE(presetSizedFor(name).has_value()) << name;
    EXPECT_EQ(presetSizedFor("cpu-quick"), PresetSize::Cpu);
    EXPECT_EQ(presetSizedFor("seed"), PresetSize::Gpu);
    EXPECT_EQ(presetSizedFor(defaultPresetName(false)), PresetSize::Cpu); // what a GPU-sized one's warning offers
    EXPECT_EQ(presetSizedFor("no-such-preset"), std::nullopt);
}
