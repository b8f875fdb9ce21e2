#include "core/config/configloader.h"
#include "core/config/configschema.h"
#include "core/config/configwriter.h"
#include "core/config/presets.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

using namespace synctax;

namespace {

void expectSameConfig(const ExperimentConfig& a, const ExperimentConfig& b)
{
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.device, b.device);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.stepsPerBlock, b.stepsPerBlock);
    EXPECT_EQ(a.blocks, b.blocks);
    EXPECT_EQ(a.minBlocks, b.minBlocks);
    EXPECT_DOUBLE_EQ(a.targetCiPp, b.targetCiPp);
    EXPECT_DOUBLE_EQ(a.timeBudgetS, b.timeBudgetS);
    EXPECT_EQ(a.processes, b.processes);
    EXPECT_EQ(a.warmupMinSteps, b.warmupMinSteps);
    EXPECT_EQ(a.warmupMaxSteps, b.warmupMaxSteps);
    EXPECT_EQ(a.hostWorkUs, b.hostWorkUs);
    EXPECT_EQ(a.optimizer, b.optimizer);
    EXPECT_DOUBLE_EQ(a.learningRate, b.learningRate);
    EXPECT_EQ(a.gpuEvents, b.gpuEvents);
    EXPECT_EQ(a.observerControl, b.observerControl);
    EXPECT_EQ(a.sink.kind, b.sink.kind);
    EXPECT_EQ(a.sink.path, b.sink.path);
    EXPECT_EQ(a.sweep, b.sweep);
    EXPECT_EQ(a.distributed, b.distributed);
    ASSERT_EQ(a.models.size(), b.models.size());
    for (size_t i = 0; i < a.models.size(); ++i) {
        EXPECT_EQ(a.models[i].name, b.models[i].name);
        EXPECT_EQ(a.models[i].batch, b.models[i].batch);
        EXPECT_EQ(a.models[i].width, b.models[i].width);
        EXPECT_EQ(a.models[i].inputSize, b.models[i].inputSize);
        EXPECT_EQ(a.models[i].classes, b.models[i].classes);
        EXPECT_EQ(a.models[i].stepsPerBlock, b.models[i].stepsPerBlock);
        EXPECT_EQ(a.models[i].blocks, b.models[i].blocks);
        EXPECT_EQ(a.models[i].hostWorkUs, b.models[i].hostWorkUs);
        EXPECT_EQ(a.models[i].sweep, b.models[i].sweep);
        EXPECT_DOUBLE_EQ(a.models[i].timeBudgetS, b.models[i].timeBudgetS);
        ASSERT_EQ(a.models[i].torchscript.has_value(), b.models[i].torchscript.has_value());
        if (a.models[i].torchscript) {
            EXPECT_EQ(a.models[i].torchscript->path, b.models[i].torchscript->path);
            EXPECT_EQ(a.models[i].torchscript->inputs, b.models[i].torchscript->inputs);
            EXPECT_EQ(a.models[i].torchscript->inputsListed, b.models[i].torchscript->inputsListed);
            EXPECT_EQ(a.models[i].torchscript->target, b.models[i].torchscript->target);
        }
    }
    ASSERT_EQ(a.styles.size(), b.styles.size());
    for (size_t i = 0; i < a.styles.size(); ++i) {
        EXPECT_EQ(a.styles[i].name, b.styles[i].name);
        EXPECT_EQ(a.styles[i].n, b.styles[i].n);
    }
    EXPECT_EQ(a.modes, b.modes);
}

// tests/data/configs/torchscript-models.yaml: three TorchScript models (one input, two inputs,
// classes and mse targets) after a built-in one.
ExperimentConfig withOwnModels()
{
    const auto own = loadConfigFile(SYNCTAX_TEST_DATA "/configs/torchscript-models.yaml");
    EXPECT_TRUE(own.config);
    auto loaded = loadConfigText(*presetText("cpu-quick"), "cpu-quick.yaml");
    EXPECT_TRUE(loaded.config);
    ExperimentConfig c = *loaded.config;
    c.models.resize(1);
    if (own.config)
        c.models.insert(c.models.end(), own.config->models.begin(), own.config->models.end());
    return c;
}

} // namespace

TEST(ConfigWriter, TorchScriptModelsSurviveARoundTrip)
{
    const ExperimentConfig c = withOwnModels();
    ASSERT_EQ(c.models.size(), 4u);
    const auto again = loadConfigText(toYaml(c), "written.yaml");
    ASSERT_TRUE(again.config) << formatErrors(again.errors);
    expectSameConfig(c, *again.config);
    // The paths are written absolute, so the config runs from any folder.
    EXPECT_EQ(again.config->models[3].torchscript->path, SYNCTAX_TEST_DATA "/torchscript/tokens-and-features.pt");
}

TEST(ConfigWriter, AOneItemInputsListStaysAList)
{
    // Written as the user wrote it, so that a message about it names the key they wrote.
    const std::string text
        = "synctax: 1\nmodels:\n  - torchscript: " SYNCTAX_TEST_DATA
          "/torchscript/mlp.pt\n    inputs: [{shape: [32]}]\n    target: {classes: 10}\nstyles: [none]\n";
    const auto listed = loadConfigText(text, "listed.yaml");
    ASSERT_TRUE(listed.config) << formatErrors(listed.errors);
    EXPECT_TRUE(listed.config->models[0].torchscript->inputsListed);
    const std::string written = toYaml(*listed.config);
    EXPECT_NE(written.find("inputs:"), std::string::npos) << written;
    const auto again = loadConfigText(written, "written.yaml");
    ASSERT_TRUE(again.config) << formatErrors(again.errors);
    expectSameConfig(*listed.config, *again.config);
}

TEST(ConfigWriter, EveryPresetSurvivesARoundTrip)
{
    for (const std::string& name : presetNames()) {
        SCOPED_TRACE(name);
        const auto original = loadConfigText(*presetText(name), name + ".yaml");
        ASSERT_TRUE(original.config);
        const std::string yaml = toYaml(*original.config);
        const auto again = loadConfigText(yaml, "written.yaml");
        ASSERT_TRUE(again.config) << yaml << (again.errors.empty() ? "" : again.errors.front().message);
        expectSameConfig(*original.config, *again.config);
    }
}

TEST(ConfigWriter, EditedFieldsAreWritten)
{
    auto loaded = loadConfigText(*presetText("cpu-quick"), "cpu-quick.yaml");
    ASSERT_TRUE(loaded.config);
    ExperimentConfig c = *loaded.config;
    c.name = "edited: with a colon";
    c.seed = 42;
    c.processes = 3;
    c.hostWorkUs = 750;
    c.sink = { SinkSpec::Kind::File, "/tmp/log file.txt" };
    c.models[0].batch = 3;
    c.models[0].hostWorkUs = 0;
    c.models[0].timeBudgetS = 7.5;
    for (StyleSpec& s : c.styles)
        if (s.name == "item_every_n")
            s.n = 7;
    c.modes = { Mode::Eager };
    c.sweep = SweepSpec { { 0, 15000 }, { 8, 2 } };
    c.models[1].sweep = SweepSpec { { 250 }, {} };
    const auto again = loadConfigText(toYaml(c), "written.yaml");
    ASSERT_TRUE(again.config);
    expectSameConfig(c, *again.config);
}

TEST(ConfigWriter, DistributedIsWritten)
{
    auto loaded = loadConfigText(*presetText("cpu-quick"), "cpu-quick.yaml");
    ASSERT_TRUE(loaded.config);
    ExperimentConfig c = *loaded.config;
    c.distributed = DistributedSpec { CollectiveBackend::Gloo, 3, SyncOn::All, 7.5 };
    const auto again = loadConfigText(toYaml(c), "written.yaml");
    ASSERT_TRUE(again.config) << again.errors.front().message;
    expectSameConfig(c, *again.config);
}

TEST(ConfigWriter, WritesEveryKeyOfTheSchema)
{
    auto loaded = loadConfigText(*presetText("cpu-quick"), "cpu-quick.yaml");
    ASSERT_TRUE(loaded.config);
    ExperimentConfig c = *loaded.config;
    c.description = "every key";
    c.models[0].stepsPerBlock = 5;
    c.models[0].blocks = 3;
    c.models[0].hostWorkUs = 0;
    c.models[0].timeBudgetS = 2;
    c.sweep = SweepSpec { { 0, 5000 }, {} };
    c.models[0].sweep = SweepSpec { {}, { 2, 4 } };
    c.distributed = DistributedSpec {};
    const YAML::Node written = YAML::Load(toYaml(c));
    std::vector<std::string> top, model, warmup;
    for (const auto& entry : written)
        top.push_back(entry.first.Scalar());
    for (const auto& entry : written[configkeys::models.name][0])
        model.push_back(entry.first.Scalar());
    // A TorchScript model's own keys, from one of one input and one of two (input, then inputs).
    const YAML::Node own = YAML::Load(toYaml(withOwnModels()))[configkeys::models.name];
    for (const auto& entry : own[1])
        model.push_back(entry.first.Scalar());
    for (const auto& entry : own[3])
        model.push_back(entry.first.Scalar());
    std::sort(model.begin(), model.end());
    model.erase(std::unique(model.begin(), model.end()), model.end());
    for (const auto& entry : written[configkeys::warmup.name])
        warmup.push_back(entry.first.Scalar());
    const auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    EXPECT_EQ(sorted(top), sorted(topLevelKeyNames()));
    EXPECT_EQ(sorted(model), sorted(modelKeyNames()));
    EXPECT_EQ(warmup, warmupKeyNames());
}
