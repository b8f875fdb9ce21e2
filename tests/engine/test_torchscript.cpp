// TorchScript files written by Debian's python3-torch (tests/data/torchscript/make-models.py, README
// there): trained for a few steps on the CPU, and every bad model entry rejected before a run with
// its message at its key (tests/data/bad-models/, NAME.yaml beside NAME.expect).
#include "core/config/configloader.h"
#include "core/engine/run/modelcheck.h"
#include "core/engine/training/trainingstate.h"
#include "models/torchscriptmodel.h"
#include "tests/core/corpus.h"

#include <gtest/gtest.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <regex>

using namespace synctax;

namespace {

const std::string data = SYNCTAX_TEST_DATA;

ModelSpec ownModel(const std::string& file, std::vector<InputSpec> inputs, TargetSpec target, int64_t batch)
{
    ModelSpec spec;
    spec.name = file;
    spec.batch = batch;
    TorchScriptSpec script;
    script.path = data + "/torchscript/" + file;
    script.inputs = std::move(inputs);
    script.target = std::move(target);
    spec.torchscript = script;
    return spec;
}

TargetSpec classes(int64_t n) { return { TargetSpec::Kind::Classes, n, {} }; }

// The loss of the first batch, then after `steps` steps on it: the same data each time, so a model
// that learns must fit it better.
std::pair<float, float> lossBeforeAndAfter(const ModelSpec& spec, int steps)
{
    TrainingState state(spec, torch::kCPU, OptimizerKind::Sgd, 0.05, 7);
    const Batch& b = state.batch(0);
    const float first = state.runStep(b.inputs, b.target).loss.item<float>();
    float last = first;
    for (int i = 0; i < steps; ++i)
        last = state.runStep(b.inputs, b.target).loss.item<float>();
    return { first, last };
}

} // namespace

TEST(TorchScriptModels, AScriptedMlpTrainsAndItsLossFalls)
{
    const auto [first, last]
        = lossBeforeAndAfter(ownModel("mlp.pt", { { { 32 }, "float32", 0 } }, classes(10), 16), 30);
    EXPECT_LT(last, 0.8F * first) << "first " << first << ", last " << last;
}

TEST(TorchScriptModels, ATracedCnnTrainsAndItsLossFalls)
{
    const auto [first, last]
        = lossBeforeAndAfter(ownModel("cnn.pt", { { { 3, 32, 32 }, "float32", 0 } }, classes(10), 8), 30);
    EXPECT_LT(last, 0.8F * first) << "first " << first << ", last " << last;
}

TEST(TorchScriptModels, TwoInputsOfTwoDtypesTrainAgainstARegressionTarget)
{
    const ModelSpec spec = ownModel("tokens-and-features.pt", { { { 12 }, "int64", 100 }, { { 8 }, "float32", 0 } },
        { TargetSpec::Kind::Mse, 0, { 4 } }, 8);
    TrainingState state(spec, torch::kCPU, OptimizerKind::Sgd, 0.05, 7);
    const Batch& b = state.batch(0);
    ASSERT_EQ(b.inputs.size(), 2u);
    EXPECT_EQ(b.inputs[0].scalar_type(), torch::kLong);
    EXPECT_LT(b.inputs[0].max().item<int64_t>(), 100);
    EXPECT_GE(b.inputs[0].min().item<int64_t>(), 0);
    EXPECT_EQ(b.target.sizes().vec(), (std::vector<int64_t> { 8, 4 }));
    const auto [first, last] = lossBeforeAndAfter(spec, 30);
    EXPECT_LT(last, 0.8F * first) << "first " << first << ", last " << last;
}

TEST(TorchScriptModels, OnlyParametersThatRequireGradAreTrained)
{
    const BuiltModel model
        = loadTorchScriptModel({ data + "/torchscript/mlp.pt", { { { 32 }, "float32", 0 } }, 10, {} });
    int64_t numel = 0;
    for (const auto& p : model.parameters())
        numel += p.numel();
    EXPECT_EQ(numel, (32 * 64 + 64) + (64 * 64 + 64) + (64 * 10 + 10)); // make-models.py's MLP(32, 64, 10)
}

TEST(TorchScriptModels, ANewerFileFormatNamesBothVersions)
{
    try {
        checkTorchScriptModel({ data + "/torchscript/newer-format.pt", { { { 32 }, "float32", 0 } }, 10, {} });
        FAIL() << "a file of format version 11 was loaded";
    } catch (const TorchScriptError& e) {
        const std::string message = e.what();
        EXPECT_EQ(e.part(), TorchScriptError::Part::File);
        EXPECT_NE(message.find("format version is 11"), std::string::npos) << message;
        EXPECT_NE(
            message.find("LibTorch " + libTorchVersion() + " reads up to " + std::to_string(newestFileFormatRead())),
            std::string::npos)
            << message;
    }
}

// attention-torch2.pt was saved by torch 2.11 and calls scaled_dot_product_attention (PyTorch 2.0 on):
// LibTorch 1.13 must name the operator it lacks; LibTorch 2 loads and runs the file.
TEST(TorchScriptModels, AnOperatorThisLibTorchLacksIsNamed)
{
    const TorchScriptModelSpec spec { data + "/torchscript/attention-torch2.pt", { { { 8, 16 }, "float32", 0 } }, 10,
        {} };
#if TORCH_VERSION_MAJOR >= 2
    EXPECT_NO_THROW(checkTorchScriptModel(spec));
#else
    try {
        checkTorchScriptModel(spec);
        FAIL() << "a module calling scaled_dot_product_attention loaded in LibTorch " << libTorchVersion();
    } catch (const TorchScriptError& e) {
        EXPECT_EQ(e.part(), TorchScriptError::Part::File);
        EXPECT_EQ(std::string(e.what()),
            "saved by a newer PyTorch than this LibTorch " + libTorchVersion()
                + ": it uses aten::scaled_dot_product_attention, which LibTorch " + libTorchVersion()
                + " does not have (the file's format version is 3)");
    }
#endif
}

TEST(BadModels, EachIsRejectedBeforeARunWithItsMessageAtItsKey)
{
    const auto cases = corpus(data + "/bad-models", ".yaml");
    for (const auto& [path, expected] : cases) {
        ASSERT_FALSE(expected.empty()) << path << " has no .expect line";
        const ConfigLoadResult loaded = loadConfigFile(path);
        ASSERT_TRUE(loaded.config) << path << ": " << formatErrors(loaded.errors);
        const std::string errors = formatErrors(checkModelFiles(*loaded.config));
        const bool located = std::regex_search(expected, std::regex("^[0-9]+:[0-9]+: "));
        const std::string wanted = located ? path + ":" + expected : expected;
        EXPECT_NE(errors.find(wanted), std::string::npos) << "expected: " << wanted << "\ngot:\n" << errors;
    }
    EXPECT_GE(cases.size(), 10u);
}

TEST(BadModels, TheGoodFilesPassEveryCheck)
{
    const ConfigLoadResult loaded = loadConfigFile(data + "/configs/torchscript-models.yaml");
    ASSERT_TRUE(loaded.config) << formatErrors(loaded.errors);
    EXPECT_EQ(formatErrors(checkModelFiles(*loaded.config)), "");
}
