// Tests that need a CUDA device; each skips where there is none (ctest label: gpu).
#include "core/devices.h"
#include "core/experimentrunner.h"
#include "core/loggingstyle.h"
#include "core/sink.h"
#include "core/stepexecutor.h"

#include <ATen/Context.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

using namespace synctax;

namespace {

#define REQUIRE_CUDA()                                                                                                 \
    if (!cudaAvailable())                                                                                              \
    GTEST_SKIP() << "no CUDA device"

std::vector<float> losses(Mode mode, const ModelSpec& spec, int steps)
{
    auto state = std::make_unique<TrainingState>(spec, torch::Device("cuda:0"), OptimizerKind::Sgd, 0.01, 42);
    auto executor = makeStepExecutor(mode, std::move(state));
    std::vector<float> out;
    for (int i = 0; i < steps; ++i)
        out.push_back(executor->step().loss.item<float>());
    return out;
}

} // namespace

TEST(Gpu, CudaGraphReplayMatchesEagerLosses)
{
    REQUIRE_CUDA();
    // cuDNN may pick other convolution algorithms under capture than eagerly; with TF32 their
    // rounding differs by ~1e-3 per layer and training amplifies it. Compare in full fp32 with
    // deterministic algorithms, so that only a real difference in the step shows.
    auto& context = at::globalContext();
    const bool tf32 = context.allowTF32CuDNN();
    const bool deterministic = context.deterministicCuDNN();
    context.setAllowTF32CuDNN(false);
    context.setDeterministicCuDNN(true);
    for (const ModelSpec& spec :
        { ModelSpec { "tiny_mlp", 64, 128, 64, 10 }, ModelSpec { "small_resnet", 16, 16, 32, 10 } }) {
        // The graph executor runs 3 eager warm-up steps and the capture (which does not execute)
        // on batch 0 before its first replay; give eager the same history.
        auto state = std::make_unique<TrainingState>(spec, torch::Device("cuda:0"), OptimizerKind::Sgd, 0.01, 42);
        std::vector<float> eager;
        {
            TrainingState& s = *state;
            for (int i = 0; i < 3; ++i)
                s.runStep(s.batch(0).input, s.batch(0).target);
            for (int i = 1; i <= 20; ++i)
                eager.push_back(s.runStep(s.batch(i).input, s.batch(i).target).loss.item<float>());
        }
        const auto graph = losses(Mode::CudaGraph, spec, 20);
        ASSERT_EQ(graph.size(), eager.size());
        for (size_t i = 0; i < eager.size(); ++i)
            EXPECT_NEAR(graph[i], eager[i], 1e-3 * std::max(1.0f, std::abs(eager[i]))) << spec.name << " step " << i;
        EXPECT_LT(graph.back(), graph.front()) << spec.name << ": the loss should fall while training";
    }
    context.setAllowTF32CuDNN(tf32);
    context.setDeterministicCuDNN(deterministic);
}

TEST(Gpu, EveryStyleRunsOnTheDevice)
{
    REQUIRE_CUDA();
    ExperimentConfig c;
    c.device = "cuda";
    c.stepsPerBlock = 5;
    c.blocks = 2;
    c.warmupMaxSteps = 5;
    c.models = { ModelSpec { "tiny_mlp", 32, 64, 32, 10 } };
    for (const char* s : { "none", "item", "item_every_n", "gpu_accumulate", "progress_bar", "progress_bar_postfix",
             "progress_bar_postfix_every_n", "print_every_step", "writer_flush_every_step", "metrics_item_each",
             "metrics_stacked", "deferred_async" })
        c.styles.push_back({ s, 2 });
    c.modes = { Mode::Eager, Mode::CudaGraph };
    ExperimentRunner runner(c);
    EXPECT_EQ(runner.device(), "cuda:0");
    const auto r = runner.run(std::atomic<bool> { false });
    ASSERT_EQ(r.cells.size(), 26u); // 2 modes x (12 styles + the A/A control)
    for (const auto& cell : r.cells) {
        EXPECT_TRUE(cell.ok) << cell.mode << "/" << cell.style << ": " << cell.error;
        EXPECT_EQ(cell.stepsMeasured, 10) << cell.style;
    }
    EXPECT_NE(r.environment.deviceName, r.environment.cpu);
}

TEST(Gpu, DeferredAsyncReadsEveryLossWithoutBlocking)
{
    REQUIRE_CUDA();
    ModelSpec spec { "tiny_mlp", 32, 64, 32, 10 };
    auto state = std::make_unique<TrainingState>(spec, torch::Device("cuda:0"), OptimizerKind::Sgd, 0.01, 1);
    auto executor = makeStepExecutor(Mode::Eager, std::move(state));
    Sink sink(SinkSpec {});
    auto style = makeLoggingStyle({ "deferred_async", 0 }, StyleContext { sink, torch::Device("cuda:0"), 10 });
    style->beginBlock();
    StepOutput last;
    for (int i = 0; i < 10; ++i) {
        last = executor->step();
        style->afterStep(last, i);
    }
    style->endBlock();
    EXPECT_FLOAT_EQ(float(style->lastValue()), last.loss.item<float>());
}

TEST(Gpu, DeviceIndexOutOfRangeIsABadInput)
{
    REQUIRE_CUDA();
    EXPECT_THROW(resolveDevice("cuda:999"), DeviceError);
    EXPECT_EQ(resolveDevice("auto"), "cuda:0");
}
