// Tests that need a CUDA device; each skips where there is none (ctest label: gpu).
#include "core/engine/run/devices.h"
#include "core/engine/run/experimentrunner.h"
#include "core/engine/run/launchcapture.h"
#include "core/engine/run/regimeprobe.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/styles/sink.h"
#include "core/engine/training/stepexecutor.h"
#include "core/queuemodel/prediction.h"

#include <ATen/Context.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <unistd.h>

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
                s.runStep(s.batch(0).inputs, s.batch(0).target);
            for (int i = 1; i <= 20; ++i)
                eager.push_back(s.runStep(s.batch(i).inputs, s.batch(i).target).loss.item<float>());
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

#ifdef SYNCTAX_HAVE_CUDA
#include "core/engine/gpu/gputimeline.h"
#include "core/engine/gpu/hostclock.h"

#include <ATen/cuda/Sleep.h>

#include <iostream>

TEST(Gpu, EventsAreAlignedToTheHostClock)
{
    REQUIRE_CUDA();
    // Two equal sleep kernels queued back to back. Aligned to the host clock, the first completes one
    // kernel after the host queued it and the second one kernel later, just before the host sees
    // the synchronize return. The kernel's own length is the reference (its clock may boost), not a
    // separate host-timed run.
    const int64_t cycles = 40'000'000; // about 20 ms at 2 GHz
    at::cuda::sleep(1'000'000);
    torch::cuda::synchronize();

    auto timeline = GpuTimeline::make("cuda:0");
    ASSERT_NE(timeline, nullptr);
    torch::cuda::synchronize();
    timeline->beginBlock(2);
    const int64_t begin = steadyNowNs();
    at::cuda::sleep(cycles);
    timeline->markStep(0);
    at::cuda::sleep(cycles);
    timeline->markStep(1);
    torch::cuda::synchronize();
    const int64_t end = steadyNowNs();
    const auto done = timeline->completionNs();
    ASSERT_EQ(done.size(), 2u);
    const double kernelMs = double(done[1] - done[0]) * 1e-6;
    EXPECT_GT(kernelMs, 1.0); // the second kernel's length is measured, not zero
    EXPECT_NEAR(double(done[0] - begin) * 1e-6, kernelMs, 0.1 * kernelMs);
    EXPECT_LE(done[1], end); // completed before the host saw the synchronize return
    EXPECT_GT(done[1], end - int64_t(0.1 * kernelMs * 1e6));
}

TEST(Gpu, RegimeQuantitiesForEveryModel)
{
    REQUIRE_CUDA();
    for (const ModelSpec& spec : { ModelSpec { "tiny_mlp", 256, 512, 256, 10 },
             ModelSpec { "small_resnet", 32, 64, 32, 10 }, ModelSpec { "resnet50", 8, 64, 224, 1000 } }) {
        for (Mode mode : { Mode::Eager, Mode::CudaGraph }) {
            auto state = std::make_unique<TrainingState>(spec, torch::Device("cuda:0"), OptimizerKind::Sgd, 0.01, 3);
            auto executor = makeStepExecutor(mode, std::move(state));
            for (int i = 0; i < 5; ++i)
                executor->step();
            const RegimeMeasurement m = measureRegime(*executor, 0);
            const std::string where = spec.name + "/" + toString(mode);
            ASSERT_TRUE(m.available) << where << ": " << m.reason;
            EXPECT_GT(m.k, 0) << where;
            EXPECT_GE(m.lUs, 1.0) << where;
            EXPECT_LE(m.lUs, 100.0) << where;
            EXPECT_GT(m.dMs, 0.0) << where;
            EXPECT_GT(m.gMs, 0.0) << where;
            EXPECT_FALSE(m.label.empty()) << where;
            std::cout << where << ": D " << m.dMs << " ms, G " << m.gMs << " ms, L " << m.lUs << " us, K " << m.k
                      << ", " << m.label << (m.queueLimited ? " (queue-limited)" : "") << "\n";
        }
    }
}

TEST(Gpu, ItemCollapsesTheQueueAndIsCountedAsOneSyncPerStep)
{
    REQUIRE_CUDA();
    ExperimentConfig c;
    c.device = "cuda";
    c.stepsPerBlock = 20;
    c.blocks = 3;
    c.minBlocks = 3;
    c.warmupMaxSteps = 20;
    c.models = { ModelSpec { "small_resnet", 64, 64, 32, 10 } };
    c.styles = { { "none", 0 }, { "item", 0 }, { "item_every_n", 5 }, { "gpu_accumulate", 0 } };
    c.modes = { Mode::Eager, Mode::CudaGraph };
    const auto r = ExperimentRunner(c).run(std::atomic<bool> { false });
    for (const auto& cell : r.cells) {
        const std::string where = cell.mode + "/" + cell.style;
        ASSERT_TRUE(cell.ok) << where << ": " << cell.error;
        ASSERT_TRUE(cell.queue) << where;
        ASSERT_TRUE(cell.syncsPerStep) << where;
        if (cell.style == "item") {
            EXPECT_DOUBLE_EQ(*cell.syncsPerStep, 1.0) << where;
            EXPECT_LE(cell.queue->maxQueueSteps, 1) << where;
        } else if (cell.style == "item_every_n") {
            EXPECT_DOUBLE_EQ(*cell.syncsPerStep, 0.2) << where;
        } else if (cell.style == "gpu_accumulate") {
            EXPECT_DOUBLE_EQ(*cell.syncsPerStep, 1.0 / 20) << where; // one .item() per block
        } else {
            EXPECT_DOUBLE_EQ(*cell.syncsPerStep, 0.0) << where;
        }
        EXPECT_EQ(cell.graphReplays >= 0, cell.mode == "cuda_graph") << where;
        if (cell.mode == "cuda_graph")
            EXPECT_EQ(cell.graphReplays, cell.stepsMeasured) << where;
    }
    for (const auto& g : r.groups)
        EXPECT_TRUE(g.regime.available) << g.model << "/" << g.mode << ": " << g.regime.reason;
}
#endif

TEST(Gpu, ACapturedStepReplaysWithItsLaunchesAndMeasuredCosts)
{
    REQUIRE_CUDA();
    if (!launchCaptureAvailable())
        GTEST_SKIP() << "this LibTorch has no Kineto";
    Sink sink { SinkSpec {} };
    const ModelSpec spec { "small_resnet", 32, 64, 32, 10 };
    auto state = std::make_unique<TrainingState>(spec, torch::Device("cuda:0"), OptimizerKind::Sgd, 0.01, 3);
    auto executor = makeStepExecutor(Mode::Eager, std::move(state));
    for (int i = 0; i < 5; ++i)
        executor->step();
    const RegimeMeasurement m = measureRegime(*executor, 0);
    ASSERT_TRUE(m.available) << m.reason;
    // A folder of this process's own, not one emptied first: on the GPU image remove_all binds to a
    // copy inside python's libtorch.so that crashes on a folder left by an earlier run.
    const auto dir = std::filesystem::temp_directory_path() / ("synctax-test-capture-" + std::to_string(::getpid()));
    CaptureRequest request;
    request.label = "small_resnet/eager";
    request.keepDir = dir.string();
    request.styles = { { "none", 0 }, { "item", 0 }, { "progress_bar", 0 }, { "gpu_accumulate", 0 } };
    request.sink = &sink;
    request.stepsPerBlock = 10;
    request.gMs = m.gMs;
    request.syncUs = m.lUs;
    std::string reason;
    const auto replay = captureLaunchSequence(*executor, request, reason);
    ASSERT_TRUE(replay) << reason;
    // Every launch the executor counts per step is in the captured step (a few more: the trace
    // also holds the copies and memsets the count skips), each joined to its GPU op.
    EXPECT_GE(int64_t(replay->step.ops.size()), m.k * 9 / 10);
    EXPECT_LE(int64_t(replay->step.ops.size()), m.k * 2);
    // Calibrated to the measured G, and to a host time under the profiled one.
    EXPECT_NEAR(gpuTimeUs(replay->step), m.gMs * 1e3, 1e-6 * m.gMs * 1e3 + 1e-6);
    EXPECT_GT(replay->calibration.hostScale, 0.05);
    EXPECT_LT(replay->calibration.hostScale, 1.5);
    EXPECT_NEAR(replayedDispatchUs(replay->step, 1021), replay->dispatchMs * 1e3, 1.0);
    // The step from an idle GPU drains after its host is done and its GPU work has run; the fit to
    // it makes the replay drain then too.
    EXPECT_GE(replay->drainMs, replay->dispatchMs);
    EXPECT_GE(replay->drainMs, 0.9 * m.gMs);
    double idleStartUs = -1;
    const StepSequence fitted = fitIdleStartToDrain(replay->step, replay->drainMs, &idleStartUs);
    if (replayedDrainUs(replay->step, 1021) < replay->drainMs * 1e3)
        EXPECT_NEAR(replayedDrainUs(fitted, 1021), replay->drainMs * 1e3, 1.0);
    else
        EXPECT_DOUBLE_EQ(idleStartUs, 0.0);
    // The styles' own costs, measured: an item reads, a bar does not.
    ASSERT_TRUE(replay->costs.measured.count("item"));
    EXPECT_GT(replay->costs.measured.at("item").readUs, 1.0);
    EXPECT_GT(replay->costs.measured.at("progress_bar").stepUs, 0.0);
    EXPECT_GT(replay->costs.measured.at("gpu_accumulate").readUs, 1.0);
    // The kept trace opens with the trace reader like any torch.profiler trace.
    ASSERT_FALSE(replay->traceFile.empty());
    EXPECT_TRUE(std::filesystem::exists(replay->traceFile));
    std::cout << "captured " << replay->step.ops.size() << " launches; D " << replay->regime.dMs << " ms, G "
              << replay->regime.gMs << " ms, " << replay->regime.label << "; " << replay->calibration.how
              << "; item read " << replay->costs.measured.at("item").readUs << " us; from idle: dispatch "
              << replay->dispatchMs << " ms, drain " << replay->drainMs << " ms, GPU start +" << idleStartUs << " us\n";
    std::error_code ignored;
    std::filesystem::remove(replay->traceFile, ignored);
    std::filesystem::remove(dir, ignored);
}
