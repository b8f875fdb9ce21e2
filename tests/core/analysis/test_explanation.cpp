#include "core/analysis/explanation.h"
#include "core/text/format.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

GroupResult group(const std::string& label, double dMs, double gMs, double lUs, int64_t k, double hUs = 0)
{
    GroupResult g;
    g.model = "resnet50";
    g.mode = "eager";
    g.regime.available = true;
    g.regime.label = label;
    g.regime.dMs = dMs;
    g.regime.gMs = gMs;
    g.regime.lUs = lUs;
    g.regime.k = k;
    g.regime.hUs = hUs;
    return g;
}

CellResult cell(const std::string& style, Interval overhead, const std::string& model = "resnet50")
{
    CellResult c;
    c.model = model;
    c.mode = "eager";
    c.style = style;
    c.overheadPct = overhead;
    return c;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(Explanation, GpuBoundQuotesBothTimesTheQueueAndTheItemOverhead)
{
    CellResult none = cell("none", { 0, 0, 0 });
    none.overheadPct.reset();
    none.queue = QueueSummary { 50.0, 2.4, 3 };
    const std::vector<CellResult> cells { none, cell("item", { 0.3, -0.1, 0.6 }) };
    const std::string text = explainGroup(group("gpu_bound", 2.3, 32.1, 30, 161), cells);
    EXPECT_TRUE(contains(text, "GPU-bound")) << text;
    EXPECT_TRUE(contains(text, "32.1 ms")) << text;
    EXPECT_TRUE(contains(text, "2.30 ms")) << text;
    EXPECT_TRUE(contains(text, "2.4 steps (~386 launches)")) << text; // 2.4 x 161
    EXPECT_TRUE(contains(text, "30.0 µs")) << text;
    EXPECT_TRUE(contains(text, "+0.3% [-0.1, +0.6]")) << text;
    EXPECT_FALSE(contains(text, "upper bound")) << text;
}

TEST(Explanation, GpuBoundCountsTheGpusRestartThatTheStepFromIdleShowed)
{
    // The replay fitted 500 µs for the GPU to start again once a sync has drained the queue: with
    // the 30 µs round trip, a 530 µs bubble of a 32.1 ms step, 1.7%.
    GroupResult g = group("gpu_bound", 2.3, 32.1, 30, 161);
    CapturedReplay replay;
    replay.regime = { 2.3, 32.1, "gpu_bound" };
    replay.idleStartUs = 500;
    g.replay = replay;
    const std::string text = explainGroup(g, { cell("item", { 1.9, 1.2, 2.6 }) });
    EXPECT_TRUE(contains(text,
        "the bubble costs about 530 µs of a 32.1 ms step (~1.7%: its round trip, and 500 µs "
        "for the GPU to start again on the drained queue, as a step from an idle GPU showed; "
        "measured item +1.9% [+1.2, +2.6])."))
        << text;
    // Without the fit, the round trip alone.
    EXPECT_TRUE(contains(explainGroup(group("gpu_bound", 2.3, 32.1, 30, 161), {}),
        "the bubble costs about 30.0 µs of a 32.1 ms step (~0.1%)."));
}

TEST(Explanation, DispatchBoundSaysTheQueueIsEmpty)
{
    const std::string text
        = explainGroup(group("dispatch_bound", 1.01, 0.23, 8, 161), { cell("item", { 3.2, 1.9, 4.4 }) });
    EXPECT_TRUE(contains(text, "Dispatch-bound")) << text;
    EXPECT_TRUE(contains(text, "1.01 ms")) << text;
    EXPECT_TRUE(contains(text, "0.230 ms")) << text;
    EXPECT_TRUE(contains(text, "~8.0 µs round trip")) << text;
    EXPECT_TRUE(contains(text, "+3.2% [+1.9, +4.4]")) << text;
}

TEST(Explanation, BalancedCountsHostWorkAsHostTime)
{
    // D 7.7 ms + H 1000 µs: the host needs 8.7 ms.
    const std::string text
        = explainGroup(group("balanced", 7.7, 7.7, 12, 161, 1000), { cell("item", { 6.2, 4.7, 7.4 }) });
    EXPECT_TRUE(contains(text, "Balanced")) << text;
    EXPECT_TRUE(contains(text, "host 8.70 ms and GPU 7.70 ms")) << text;
    EXPECT_TRUE(contains(text, "1000 µs of configured host work")) << text;
    EXPECT_TRUE(contains(text, "+6.2% [+4.7, +7.4]")) << text;
}

TEST(Explanation, OnlyTheItemCellOfTheSameGroupIsQuoted)
{
    const std::vector<CellResult> cells { cell("item", { 9.9, 8.8, 11.1 }, "tiny_mlp"),
        cell("item_every_n", { 1.1, 0.5, 1.7 }) };
    const std::string text = explainGroup(group("balanced", 1, 1, 10, 20), cells);
    EXPECT_FALSE(contains(text, "9.9")) << text;
    EXPECT_FALSE(contains(text, "1.1%")) << text;
    EXPECT_FALSE(contains(text, "measured item")) << text;
}

TEST(Explanation, QueueLimitedMarksDispatchTimeAsAnUpperBound)
{
    GroupResult g = group("gpu_bound", 4.5, 40, 25, 3000);
    g.regime.queueLimited = true;
    const std::string text = explainGroup(g, {});
    EXPECT_TRUE(contains(text, "D (4.50 ms) is an upper bound")) << text;
    EXPECT_TRUE(contains(text, "fills the launch queue")) << text;
    EXPECT_TRUE(contains(regimeNumbers(g.regime), "D 4.50 ms (upper bound)"));
}

TEST(Explanation, AReplayedStepsDAndGAreQuotedNotTheProbesUpperBound)
{
    // The probe's D is queue-limited (an upper bound); the group's replayed step has D 21 ms and
    // G 33 ms, whose label (gpu_bound) the run already took: those are the numbers quoted.
    GroupResult g = group("gpu_bound", 29.2, 33.2, 10, 1265);
    g.regime.queueLimited = true;
    CapturedReplay replay;
    replay.regime = { 21.0, 33.0, "gpu_bound" };
    g.replay = replay;
    const std::string text = explainGroup(g, {});
    EXPECT_FALSE(contains(text, "upper bound")) << text;
    EXPECT_TRUE(contains(text, "21.0")) << text;
    EXPECT_FALSE(contains(text, "29.2")) << text;
    EXPECT_TRUE(contains(regimeNumbers(groupRegime(g)), "D 21.0 ms · G 33.0 ms")) << regimeNumbers(groupRegime(g));
}

TEST(Explanation, CpuRunSaysLastThatThereIsNoGpuQueueToExplain)
{
    GroupResult g;
    g.model = "resnet50";
    g.mode = "eager";
    g.regime.reason = "device is the CPU";
    const std::string text = explainGroup(g, { cell("item", { 0.1, -0.4, 0.5 }) });
    EXPECT_TRUE(contains(text, "host costs only")) << text;
    EXPECT_TRUE(contains(text, "+0.1% [-0.4, +0.5]")) << text;
    const std::string last = "No GPU queue to explain: every op runs synchronously, so a sync such as item() waits "
                             "for nothing (device is the CPU).";
    ASSERT_GE(text.size(), last.size()) << text;
    EXPECT_EQ(text.substr(text.size() - last.size()), last) << text;
    EXPECT_LT(text.find("+0.1%"), text.find("No GPU queue")) << text;
    EXPECT_FALSE(contains(text, "oo noisy")) << text;
    EXPECT_EQ(regimeTitle(g.regime), "No GPU queue");
    EXPECT_EQ(regimeNumbers(g.regime), "");
}

TEST(Explanation, ATooNoisyGroupSaysNoOverheadIsAFinding)
{
    GroupResult cpu;
    cpu.model = "resnet50";
    cpu.mode = "eager";
    cpu.noiseFloorPct = 21.1;
    cpu.noiseVerdict = NoiseVerdict::ControlNotWithinNoise;
    const std::string text = explainGroup(cpu, { cell("item", { -12.0, -20.0, -4.0 }) });
    const auto noisy = text.find("Too noisy to tell styles apart (the A/A control's interval excludes 0; noise floor "
                                 "21.1% is above 5%): no overhead measured here is a finding.");
    ASSERT_NE(noisy, std::string::npos) << text;
    EXPECT_LT(text.find("-12.0%"), noisy) << text;
    EXPECT_LT(noisy, text.find("No GPU queue to explain")) << text; // still the last sentence

    GroupResult gpu = group("dispatch_bound", 1.01, 0.23, 8, 161);
    gpu.noiseFloorPct = 7.5;
    gpu.noiseVerdict = NoiseVerdict::FloorTooHigh;
    const std::string gpuText = explainGroup(gpu, { cell("item", { 3.2, 1.9, 4.4 }) });
    EXPECT_TRUE(contains(gpuText, "Too noisy to tell styles apart (noise floor 7.5% is above 5%)")) << gpuText;
    gpu.noiseVerdict = NoiseVerdict::Trusted;
    EXPECT_FALSE(contains(explainGroup(gpu, {}), "oo noisy"));
}

TEST(Explanation, NumbersLineAndTitles)
{
    const GroupResult g = group("dispatch_bound", 1.01, 0.231, 8, 161);
    EXPECT_EQ(regimeNumbers(g.regime), "D 1.01 ms · G 0.231 ms · L 8.0 µs · K 161 · H 0 µs");
    EXPECT_EQ(regimeTitle(g.regime), "Dispatch-bound");
    EXPECT_EQ(regimeTitle(group("gpu_bound", 1, 2, 3, 4).regime), "GPU-bound");
    EXPECT_EQ(formatMs(32.14), "32.1");
    EXPECT_EQ(formatMs(123.4), "123");
    EXPECT_EQ(formatMs(8.544), "8.54");
}
