#include "core/config/stylecatalog.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/styles/sink.h"

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

// The steps of a 12-step block after which the style read a value back (the loss of step i is
// i + 1, so every read changes lastValue); a read in endBlock() counts as after the last step.
std::vector<int64_t> readSteps(LoggingStyle& style)
{
    std::vector<int64_t> steps;
    double last = style.lastValue();
    style.beginBlock();
    for (int64_t i = 0; i < 12; ++i) {
        style.afterStep(fakeStep(float(i + 1)), i);
        if (style.lastValue() != last)
            steps.push_back(i);
        last = style.lastValue();
    }
    style.endBlock();
    if (style.lastValue() != last)
        steps.push_back(11);
    return steps;
}

std::vector<int64_t> catalogSyncSteps(const StyleInfo& info, int64_t n)
{
    std::vector<int64_t> steps;
    for (int64_t i = 0; i < 12; ++i)
        if (syncsAfterStep(info, n, i, 12))
            steps.push_back(i);
    return steps;
}

} // namespace

// Every row of the catalog has an implementation, and it reads back exactly where the row's
// cadence says it waits, which is what the simulator and the queue chart assume.
TEST(LoggingStyles, EveryCatalogStyleIsMadeAndReadsAtItsCadence)
{
    Fixture f;
    for (const auto& info : styleCatalog()) {
        for (int64_t n : { int64_t(info.defaultN), int64_t(5) }) {
            if (n != info.defaultN && !info.takesN())
                continue;
            auto style = makeLoggingStyle({ info.name, n }, StyleContext { f.sink, torch::kCPU, 12 });
            ASSERT_NE(style, nullptr) << info.name;
            if (info.behaviour == StyleBehaviour::DeferredCopy)
                continue; // it reads every step without waiting (DeferredReadsThePreviousStepWithoutWaiting)
            EXPECT_EQ(readSteps(*style), catalogSyncSteps(info, n)) << info.name << " n=" << n;
        }
    }
    EXPECT_THROW(f.make("tensorboard"), std::invalid_argument);
}

// A new style that pairs an existing behaviour with another cadence is a catalog row, no code.
TEST(LoggingStyles, ANewCombinationNeedsOnlyItsDescription)
{
    const std::string path = (std::filesystem::temp_directory_path() / "synctax-test-print-every-n.txt").string();
    std::remove(path.c_str());
    {
        Fixture f(SinkSpec { SinkSpec::Kind::File, path });
        const StyleInfo printEveryN { "print_every_n", "print the loss every n steps", 10, ReadCadence::EveryN,
            StyleBehaviour::PrintLoss, { 1, 0, HostWork::Redraw } };
        auto style = makeLoggingStyle(printEveryN, 4, StyleContext { f.sink, torch::kCPU, 10 });
        EXPECT_EQ(readSteps(*style), (std::vector<int64_t> { 3, 7, 11 }));
    }
    EXPECT_EQ(readAll(path), "step 3 loss 4.000000\nstep 7 loss 8.000000\nstep 11 loss 12.000000\n");
    std::remove(path.c_str());

    // One the engine has no implementation for is refused, not run as something else.
    Fixture f;
    const StyleInfo deferredEveryStep { "deferred_every_step", "a deferred copy waited for", 0, ReadCadence::EveryStep,
        StyleBehaviour::DeferredCopy, { 1, 1, HostWork::None } };
    EXPECT_THROW(
        makeLoggingStyle(deferredEveryStep, 0, StyleContext { f.sink, torch::kCPU, 10 }), std::invalid_argument);
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
