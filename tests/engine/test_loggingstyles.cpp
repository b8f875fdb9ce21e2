#include "core/styles/loggingstyle.h"
#include "core/styles/sink.h"
#include "core/config/stylecatalog.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace synctax;

namespace {

StepOutput fakeStep(float loss)
{
    StepOutput out;
    out.loss = torch::tensor(loss);
    out.logits = torch::tensor({ { 2.0f, 0.0f }, { 0.0f, 3.0f } });
    out.target = torch::tensor({ 0, 0 }, torch::kLong);
    return out;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Fixture {
    explicit Fixture(SinkSpec spec = {})
        : sink(spec)
    {
    }
    std::unique_ptr<LoggingStyle> make(const std::string& name, int64_t n = 0)
    {
        return makeLoggingStyle({ name, n }, StyleContext { sink, torch::kCPU, 10 });
    }
    Sink sink;
};

// Runs a block of `steps` steps whose loss is the step number.
void runBlock(LoggingStyle& style, int steps)
{
    style.beginBlock();
    for (int i = 0; i < steps; ++i)
        style.afterStep(fakeStep(float(i)), i);
    style.endBlock();
}

} // namespace

TEST(LoggingStyles, EveryCatalogStyleCanBeMade)
{
    Fixture f;
    for (const auto& info : styleCatalog())
        EXPECT_NE(f.make(info.name, info.defaultN), nullptr) << info.name;
    EXPECT_THROW(f.make("tensorboard"), std::invalid_argument);
}

TEST(LoggingStyles, ItemReadsEveryStepAndEveryNOnlyEveryN)
{
    Fixture f;
    auto item = f.make("item");
    item->beginBlock();
    item->afterStep(fakeStep(3.5f), 0);
    EXPECT_FLOAT_EQ(item->lastValue(), 3.5f);

    auto everyN = f.make("item_every_n", 4);
    everyN->beginBlock();
    for (int i = 0; i < 7; ++i)
        everyN->afterStep(fakeStep(float(i)), i);
    EXPECT_FLOAT_EQ(everyN->lastValue(), 3.0f); // read at step index 3 only; 7 is not reached
}

TEST(LoggingStyles, GpuAccumulateReadsTheSumOncePerBlock)
{
    Fixture f;
    auto style = f.make("gpu_accumulate");
    style->beginBlock();
    for (int i = 0; i < 5; ++i) {
        style->afterStep(fakeStep(float(i)), i);
        EXPECT_FLOAT_EQ(style->lastValue(), 0.0f);
    }
    style->endBlock();
    EXPECT_FLOAT_EQ(style->lastValue(), 10.0f);
    runBlock(*style, 3); // a new block starts a new sum
    EXPECT_FLOAT_EQ(style->lastValue(), 3.0f);
}

TEST(LoggingStyles, MetricsEachAndStackedReadTheSameValues)
{
    Fixture f;
    auto each = f.make("metrics_item_each");
    auto stacked = f.make("metrics_stacked");
    each->afterStep(fakeStep(1.0f), 0);
    stacked->afterStep(fakeStep(1.0f), 0);
    EXPECT_NEAR(each->lastValue(), stacked->lastValue(), 1e-5);
    // loss 1 + accuracy 0.5 + confidence + norm sqrt(13)
    const double confidence = (1 / (1 + std::exp(-2.0)) + 1 / (1 + std::exp(-3.0))) / 2;
    EXPECT_NEAR(each->lastValue(), 1.0 + 0.5 + confidence + std::sqrt(13.0), 1e-5);
}

TEST(LoggingStyles, DeferredReadsThePreviousStepWithoutWaiting)
{
    Fixture f;
    auto style = f.make("deferred_async");
    style->beginBlock();
    style->afterStep(fakeStep(5.0f), 0);
    style->afterStep(fakeStep(6.0f), 1);
    EXPECT_FLOAT_EQ(style->lastValue(), 5.0f);
}

TEST(LoggingStyles, PrintWritesOneLinePerStep)
{
    const std::string path = (std::filesystem::temp_directory_path() / "synctax-test-print.txt").string();
    std::remove(path.c_str());
    {
        Fixture f(SinkSpec { SinkSpec::Kind::File, path });
        auto style = f.make("print_every_step");
        runBlock(*style, 3);
    }
    EXPECT_EQ(readAll(path), "step 0 loss 0.000000\nstep 1 loss 1.000000\nstep 2 loss 2.000000\n");
    std::remove(path.c_str());
}

TEST(LoggingStyles, ProgressBarWithPostfixShowsTheLoss)
{
    const std::string path = (std::filesystem::temp_directory_path() / "synctax-test-bar.txt").string();
    std::remove(path.c_str());
    {
        Fixture f(SinkSpec { SinkSpec::Kind::File, path });
        runBlock(*f.make("progress_bar_postfix"), 10);
        runBlock(*f.make("progress_bar"), 10);
    }
    const std::string text = readAll(path);
    EXPECT_NE(text.find("10/10"), std::string::npos) << text;
    EXPECT_NE(text.find("loss=9.0000"), std::string::npos) << text;
    std::remove(path.c_str());
}

TEST(LoggingStyles, WriterFlushesEachScalarAndCleansUp)
{
    const std::string prefix = "synctax-scalars-" + std::to_string(getpid()) + "-";
    const auto scratchFiles = [&] {
        std::vector<std::string> paths;
        for (const auto& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
            if (e.path().filename().string().rfind(prefix, 0) == 0)
                paths.push_back(e.path().string());
        }
        return paths;
    };
    {
        Fixture f;
        auto style = f.make("writer_flush_every_step");
        runBlock(*style, 4);
        EXPECT_FLOAT_EQ(style->lastValue(), 3.0f);
        const auto files = scratchFiles();
        ASSERT_EQ(files.size(), 1u);
        // Flushed: another reader sees every line while the writer is still open.
        EXPECT_EQ(readAll(files[0]),
            "train/loss,0,0.000000\ntrain/loss,1,1.000000\ntrain/loss,2,2.000000\ntrain/loss,3,3.000000\n");
    }
    EXPECT_TRUE(scratchFiles().empty());
}

TEST(LoggingStyles, SyncPointsFollowEachStylesCadence)
{
    auto syncSteps = [](const std::string& name, int64_t n) {
        std::vector<int64_t> steps;
        for (int64_t step = 0; step < 12; ++step)
            if (synctax::syncsAfterStep({ name, n }, step, 12))
                steps.push_back(step);
        return steps;
    };
    EXPECT_EQ(syncSteps("item", 0).size(), 12u);
    EXPECT_EQ(syncSteps("item_every_n", 5), (std::vector<int64_t> { 4, 9 }));
    EXPECT_EQ(syncSteps("progress_bar_postfix_every_n", 4), (std::vector<int64_t> { 3, 7, 11 }));
    EXPECT_EQ(syncSteps("gpu_accumulate", 0), (std::vector<int64_t> { 11 }));
    EXPECT_TRUE(syncSteps("none", 0).empty());
    EXPECT_TRUE(syncSteps("progress_bar", 0).empty());
    EXPECT_TRUE(syncSteps("deferred_async", 0).empty());
}
