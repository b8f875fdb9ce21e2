#include "core/config/configloader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace synctax;

namespace {

ConfigLoadResult load(const std::string& text) { return loadConfigText(text, "test.yaml"); }

bool hasError(const ConfigLoadResult& r, int line, int column, const std::string& fragment)
{
    return std::any_of(r.errors.begin(), r.errors.end(), [&](const ConfigError& e) {
        return e.line == line && e.column == column && e.message.find(fragment) != std::string::npos;
    });
}

std::string allErrors(const ConfigLoadResult& r) { return formatErrors(r.errors); }

const char* minimal = "synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\n";

} // namespace

TEST(ConfigLoader, MinimalConfigGetsCatalogDefaultsAndTheBaseline)
{
    auto r = load(minimal);
    ASSERT_TRUE(r.config) << allErrors(r);
    const auto& c = *r.config;
    ASSERT_EQ(c.models.size(), 1u);
    EXPECT_EQ(c.models[0].batch, 256);
    EXPECT_EQ(c.models[0].width, 512);
    EXPECT_EQ(c.models[0].classes, 10);
    ASSERT_EQ(c.styles.size(), 2u);
    EXPECT_EQ(c.styles[0].name, "none");
    EXPECT_EQ(c.styles[1].name, "item");
    EXPECT_EQ(c.device, "auto");
    EXPECT_EQ(c.modes, std::vector<Mode> { Mode::Eager });
}

TEST(ConfigLoader, ModelMappingsOverrideSizesAndBlocks)
{
    auto r = load("synctax: 1\n"
                  "models:\n"
                  "  - name: resnet50\n"
                  "    batch: 8\n"
                  "    input_size: 96\n"
                  "    steps_per_block: 7\n"
                  "    host_work_us: 300\n"
                  "    time_budget_s: 12.5\n"
                  "styles: [none, {name: item_every_n, n: 25}]\n"
                  "steps_per_block: 11\n"
                  "sink: stderr\n");
    ASSERT_TRUE(r.config) << allErrors(r);
    const auto& c = *r.config;
    EXPECT_EQ(c.models[0].batch, 8);
    EXPECT_EQ(c.models[0].inputSize, 96);
    EXPECT_EQ(c.models[0].classes, 1000);
    EXPECT_EQ(c.stepsPerBlockFor(c.models[0]), 7);
    EXPECT_EQ(c.hostWorkUsFor(c.models[0]), 300);
    EXPECT_DOUBLE_EQ(c.timeBudgetSFor(c.models[0]), 12.5);
    EXPECT_EQ(c.styles[1].n, 25);
    EXPECT_EQ(c.sink.kind, SinkSpec::Kind::Stderr);
}

TEST(ConfigLoader, IntervalStylesDefaultTheirN)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item_every_n, progress_bar_postfix_every_n]\n");
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->styles[1].n, 10);
    EXPECT_EQ(r.config->styles[2].n, 50);
}

TEST(ConfigLoader, UnknownKeyIsLocatedAndNamesTheExpectedKeys)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nstep_per_block: 5\n");
    EXPECT_FALSE(r.config);
    EXPECT_TRUE(hasError(r, 4, 1, "unknown key 'step_per_block'")) << allErrors(r);
    EXPECT_NE(allErrors(r).find("steps_per_block"), std::string::npos);
}

TEST(ConfigLoader, WrongTypeIsLocatedAtTheValue)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nsteps_per_block: lots\n");
    EXPECT_TRUE(hasError(r, 4, 18, "steps_per_block: expected an integer, found 'lots'")) << allErrors(r);
}

TEST(ConfigLoader, OutOfRangeValuesAreRejected)
{
    auto r = load("synctax: 1\nmodels: [{name: tiny_mlp, batch: 0}]\nstyles: [item]\nblocks: 1\n");
    EXPECT_TRUE(hasError(r, 2, 34, "batch: 0 is out of range")) << allErrors(r);
    EXPECT_TRUE(hasError(r, 4, 9, "blocks: 1 is out of range; expected 2")) << allErrors(r);
}

TEST(ConfigLoader, UnknownNamesListTheChoices)
{
    auto r = load("synctax: 1\nmodels: [vgg16]\nstyles: [item, tensorboard]\nmodes: [jit]\ndevice: tpu\n");
    EXPECT_TRUE(hasError(r, 2, 10, "unknown model 'vgg16'; expected one of: tiny_mlp, small_resnet, resnet50"))
        << allErrors(r);
    EXPECT_TRUE(hasError(r, 3, 16, "unknown style 'tensorboard'")) << allErrors(r);
    EXPECT_TRUE(hasError(r, 4, 9, "unknown mode 'jit'")) << allErrors(r);
    EXPECT_TRUE(hasError(r, 5, 9, "unknown device 'tpu'")) << allErrors(r);
}

TEST(ConfigLoader, DuplicateKeysAreErrors)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nseed: 1\nseed: 2\n");
    EXPECT_TRUE(hasError(r, 5, 1, "duplicate key 'seed'")) << allErrors(r);
}

TEST(ConfigLoader, AllErrorsAreCollectedAtOnce)
{
    auto r = load("synctax: 2\nmodels: [tiny_mlp, tiny_mlp]\nstyles: [item, item]\nwarmup: {min_steps: -1}\n");
    EXPECT_FALSE(r.config);
    EXPECT_EQ(r.errors.size(), 4u) << allErrors(r);
}

TEST(ConfigLoader, MissingRequiredKeysAreNamed)
{
    auto r = load("name: x\n");
    EXPECT_NE(allErrors(r).find("missing 'synctax: 1'"), std::string::npos);
    EXPECT_NE(allErrors(r).find("missing 'models'"), std::string::npos);
    EXPECT_NE(allErrors(r).find("missing 'styles'"), std::string::npos);
}

TEST(ConfigLoader, SyntaxErrorsCarryTheirPosition)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp\nstyles: [item]\n");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_GT(r.errors[0].line, 1);
    EXPECT_NE(r.errors[0].message.find("YAML syntax"), std::string::npos);
    EXPECT_EQ(r.errors[0].format().rfind("test.yaml:", 0), 0u);
}

TEST(ConfigLoader, IntervalOnAStyleWithoutOneIsAnError)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [{name: item, n: 3}]\n");
    EXPECT_TRUE(hasError(r, 3, 26, "takes no interval")) << allErrors(r);
}

TEST(ConfigLoader, GraphsWithAdamAreAContradiction)
{
    auto r = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nmodes: [cuda_graph]\noptimizer: adam\n");
    EXPECT_FALSE(r.config);
    EXPECT_NE(allErrors(r).find("cuda_graph needs optimizer sgd"), std::string::npos);
}

TEST(ConfigLoader, TopLevelMustBeAMapping)
{
    auto r = load("- tiny_mlp\n");
    EXPECT_TRUE(hasError(r, 1, 1, "expected a mapping at the top level")) << allErrors(r);
}

TEST(ConfigLoader, FileErrorsNameTheFile)
{
    auto r = loadConfigFile(SYNCTAX_TEST_DATA "/configs/unknown-key.yaml");
    ASSERT_FALSE(r.errors.empty());
    EXPECT_EQ(r.errors[0].format(),
        std::string(
            SYNCTAX_TEST_DATA "/configs/unknown-key.yaml:6:5: unknown key 'batch_size' in a model; "
                              "expected one of: name, batch, width, input_size, classes, steps_per_block, "
                              "blocks, host_work_us, time_budget_s, sweep, torchscript, input, inputs, target"));
    auto missing = loadConfigFile("/nonexistent/x.yaml");
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_NE(missing.errors[0].message.find("cannot open"), std::string::npos);
}

TEST(ConfigLoader, PresetNamesResolveWhenNoFileHasThatName)
{
    auto seed = loadConfigOrPreset("seed");
    ASSERT_TRUE(seed.config) << formatErrors(seed.errors);
    auto missing = loadConfigOrPreset("no-such-preset");
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_NE(missing.errors[0].message.find("cpu-quick"), std::string::npos);
}

TEST(ConfigLoader, GpuEventsCanBeSwitchedOffButNotWhileObserving)
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

TEST(ConfigLoader, TheNameIsCheckedAsTheNameOfTheResultsFolder)
{
    const auto withName = [](const std::string& quoted) {
        return load("synctax: 1\nname: " + quoted + "\nmodels: [tiny_mlp]\nstyles: [item]\n");
    };
    for (const char* bad :
        { "../../../tmp/escaped", "a/b", "'a\\b'", "\"\"", "\"bad\\0name\"", "\"tab\\tname\"", "'..'", "'.'" }) {
        const auto r = withName(bad);
        EXPECT_FALSE(r.config) << bad;
        EXPECT_TRUE(hasError(r, 2, 7, "cannot name the results folder")) << bad << "\n" << allErrors(r);
    }
    EXPECT_TRUE(hasError(withName("\"bad\\0name\""), 2, 7, "'bad\\x00name'"));
    EXPECT_FALSE(withName(std::string(101, 'x')).config);
    for (const std::string& good :
        std::vector<std::string> { "seed", "'edited: with a colon'", "'résultats été'", "..hidden", "x.y_z-1",
            std::string(100, 'x'), "'" + std::string(50, 'x') + "é" + std::string(49, 'x') + "'" }) {
        const auto r = withName(good);
        EXPECT_TRUE(r.config) << good << "\n" << allErrors(r);
    }
}

TEST(ConfigLoader, ContradictionsPointAtTheKeyThatConflicts)
{
    auto adam = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nmodes: [cuda_graph]\noptimizer: adam\n");
    EXPECT_TRUE(hasError(adam, 5, 12, "mode cuda_graph needs optimizer sgd")) << allErrors(adam);
    auto observer = load("synctax: 1\nobserver_control: true\nmodels: [tiny_mlp]\nstyles: [item]\ngpu_events: no\n");
    EXPECT_TRUE(hasError(observer, 2, 19, "observer_control compares")) << allErrors(observer);
    auto warmup = load("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nwarmup:\n  max_steps: 5\n");
    EXPECT_TRUE(hasError(warmup, 5, 14, "min_steps is larger than max_steps")) << allErrors(warmup);
}

TEST(ConfigLoader, ADirectoryIsNamedAsOne)
{
    const std::string dir = SYNCTAX_TEST_DATA "/configs";
    auto file = loadConfigFile(dir);
    ASSERT_EQ(file.errors.size(), 1u);
    EXPECT_EQ(file.errors[0].format(), dir + ": is a directory; expected a config file (YAML)");
    auto either = loadConfigOrPreset(dir);
    ASSERT_EQ(either.errors.size(), 1u);
    EXPECT_EQ(either.errors[0].format(), dir + ": is a directory; expected a config file (YAML) or a preset's name");
}

TEST(ConfigLoader, ASimulationFileIsToldApart)
{
    auto r = load("# a simulation\nsynctax_simulation: 1\nstyles: [item]\nscenarios: [{name: a, d_ms: 1, g_ms: 1}]\n");
    ASSERT_EQ(r.errors.size(), 1u) << allErrors(r);
    EXPECT_EQ(r.errors[0].format(),
        "test.yaml:2:1: this is a simulation file (synctax_simulation: 1), not an experiment config: simulate it "
        "with 'synctax-run simulate'");
}

TEST(ConfigLoader, DistributedIsReadWithItsDefaults)
{
    const auto absent = loadConfigText("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\n", "t.yaml");
    ASSERT_TRUE(absent.config);
    EXPECT_FALSE(absent.config->distributed);

    const auto defaults = loadConfigText("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\ndistributed: {}\n", "t.yaml");
    ASSERT_TRUE(defaults.config) << defaults.errors.front().message;
    ASSERT_TRUE(defaults.config->distributed);
    EXPECT_EQ(*defaults.config->distributed, DistributedSpec {});

    const auto written = loadConfigText("synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\ndevice: cuda\n"
                                        "distributed: {backend: nccl, ranks: 4, sync_on: all, timeout_s: 5}\n",
        "t.yaml");
    ASSERT_TRUE(written.config) << written.errors.front().message;
    EXPECT_EQ(*written.config->distributed, (DistributedSpec { CollectiveBackend::Nccl, 4, SyncOn::All, 5.0 }));
}

TEST(ConfigLoader, ASymlinkLoopIsSaidAsOne)
{
    const std::filesystem::path loop = std::filesystem::temp_directory_path() / "synctax-test-config-loop.yaml";
    std::filesystem::remove(loop);
    std::filesystem::create_symlink(loop, loop);
    const ConfigLoadResult r = loadConfigOrPreset(loop.string());
    std::filesystem::remove(loop);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(
        r.errors[0].format(), loop.string() + ": cannot open the file for reading (Too many levels of symbolic links)");
}

TEST(ConfigLoader, AMinBlocksAboveBlocksIsRefusedOnlyWhereSomeoneWroteIt)
{
    // Written back from a run (results.json, the runner's copy after its options), every key is
    // there, defaults too: min_blocks 10 over blocks 3 is the default, not a mistake.
    const std::string text = "synctax: 1\nmodels: [tiny_mlp]\nstyles: [item]\nblocks: 3\nmin_blocks: 10\n";
    EXPECT_TRUE(loadConfigText(text, "results.json /config").config);
}

TEST(ConfigErrors, ControlCharactersAreEscaped)
{
    const ConfigError e { "a\x1b[2Jb.yaml", 1, 2, "found 'x\ry'" };
    EXPECT_EQ(e.format(), "a\\x1b[2Jb.yaml:1:2: found 'x\\x0dy'");
    EXPECT_EQ(printable("tab\there"), "tab\\x09here");
}
