#include "core/config/experimentconfig.h"
#include "core/queuemodel/prediction.h"
#include "core/queuemodel/simulator.h"
#include "core/queuemodel/stylereplay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

using namespace synctax;

namespace {

constexpr double kEps = 1e-9;

// K identical launches back to back, as the uniform Simulator dispatches a step: op j issued at
// j * D/K, costing D/K on the host and G/K on the GPU; the step's host time is D.
StepSequence uniform(int k, double dUs, double gUs)
{
    StepSequence seq;
    const double d = dUs / k;
    for (int j = 0; j < k; ++j)
        seq.ops.push_back({ j * d, d, gUs / k, 7 });
    seq.stepHostUs = dUs;
    return seq;
}

// Ten launches of 10 µs, the first nine 1 µs on the GPU, the last 500 µs: a step whose GPU work
// ends in one long kernel launched at its end.
StepSequence longLastKernel()
{
    StepSequence seq;
    for (int j = 0; j < 10; ++j)
        seq.ops.push_back({ j * 10.0, 10.0, j == 9 ? 500.0 : 1.0, 7 });
    seq.stepHostUs = 100;
    return seq;
}

ReplayOptions hostWork(double hUs, std::int64_t queueCapacity = 1021)
{
    ReplayOptions o;
    o.hostWorkUs = hUs;
    o.queueCapacity = queueCapacity;
    return o;
}

} // namespace

TEST(StyleReplay, UniformLaunchesReproduceTheUniformSimulator)
{
    // The same D, G, H, L, K and Q in both models, no tail and no jitter: every style's block must
    // take the Simulator's time, in each regime. Styles that add launches are left out: the replay
    // charges a read's own launches inside its measured read cost, on an idle GPU, where the
    // Simulator queues them behind the step at D/K each.
    const std::vector<StyleSpec> styles { { "none", 0 }, { "item", 0 }, { "item_every_n", 5 }, { "progress_bar", 0 },
        { "progress_bar_postfix", 0 }, { "progress_bar_postfix_every_n", 4 }, { "print_every_step", 0 } };
    struct Case {
        double dMs, gMs, hUs;
    };
    for (const Case c :
        { Case { 1.0, 0.2, 0 }, Case { 1.0, 1.0, 0 }, Case { 0.5, 3.0, 100 }, Case { 2.0, 2.4, 400 } }) {
        QueueModel m;
        m.dMs = c.dMs;
        m.gMs = c.gMs;
        m.hUs = c.hUs;
        m.k = 40;
        const auto simulated = simulateStyles(m, styles, 20, 1);
        ReplayCosts costs; // the Simulator's defaults: L 8, format 3, redraw 30, extra launch 2
        costs.syncUs = m.lUs;
        for (size_t i = 0; i < styles.size(); ++i) {
            const StyleBlockReplay r
                = replayStyleBlock(uniform(40, c.dMs * 1e3, c.gMs * 1e3), styles[i], 20, hostWork(c.hUs), costs);
            EXPECT_NEAR(r.msPerStep, simulated[i].msPerStep, 1e-6)
                << styles[i].name << " D " << c.dMs << " G " << c.gMs << " H " << c.hUs;
        }
    }
}

TEST(StyleReplay, OneLongKernelAtTheStepsEndIsTheTailASyncWaitsFor)
{
    // Ten launches of 10 µs, the first nine 1 µs on the GPU, the last 500 µs; H = 1000 µs, so the
    // loop is dispatch-bound (1100 µs of host per step against 509 of GPU). Without a sync the long
    // kernel runs under the next step's host work; item waits for it: the tail is its 500 µs, plus L.
    const StepSequence seq = longLastKernel();
    ReplayCosts costs;
    costs.syncUs = 8;
    const auto p = predictStyles(seq, { { "none", 0 }, { "item", 0 } }, 0, hostWork(1000), costs);
    EXPECT_NEAR(p[0].stepMs, 1.100, kEps);
    EXPECT_NEAR(p[1].stepMs - p[0].stepMs, 0.500 + 0.008, kEps);
    EXPECT_NEAR(p[1].syncWaitMs, 0.500, kEps);
    EXPECT_NEAR(p[1].taxPct, 0.508 / 1.100 * 100.0, 1e-9);
}

TEST(StyleReplay, TheHostsSlowdownAfterAReadIsChargedToEachStepThatFollowsOne)
{
    // A dispatch-bound step (1000 µs of host, 200 of GPU): every µs the host loses after a read
    // lengthens the block. Blocks of 20 steps: item reads after each step, and 19 steps follow a
    // read; item_every_n with n = 5 reads after steps 4, 9, 14 and 19, and 3 steps follow one.
    // The baseline reads nothing and moves not at all.
    const StepSequence seq = uniform(40, 1000, 200);
    ReplayCosts without;
    without.syncUs = 8;
    ReplayCosts with = without;
    with.afterSyncUs = 40;
    with.afterSyncPairs = 1000;
    const auto added = [&](const StyleSpec& style) {
        return (replayStyleBlock(seq, style, 20, hostWork(0), with).msPerStep
                   - replayStyleBlock(seq, style, 20, hostWork(0), without).msPerStep)
            * 1e3;
    };
    EXPECT_NEAR(added({ "none", 0 }), 0, kEps);
    EXPECT_NEAR(added({ "item", 0 }), 40.0 * 19 / 20, 1e-6);
    EXPECT_NEAR(added({ "item_every_n", 5 }), 40.0 * 3 / 20, 1e-6);
    EXPECT_NEAR(added({ "progress_bar", 0 }), 0, kEps); // a bar without a postfix reads nothing
    // A long loop's steady state pays it at every read.
    const auto steady = [&](const ReplayCosts& costs) {
        return predictStyles(seq, { { "none", 0 }, { "item", 0 } }, 0, hostWork(0), costs)[1].stepMs * 1e3;
    };
    EXPECT_NEAR(steady(with) - steady(without), 40, 1e-6);
    EXPECT_EQ(afterSyncText(without), "");
    EXPECT_EQ(afterSyncText(with), "; a step after a read-back dispatches 40.0 us slower (1000 pairs)");
}

TEST(StyleReplay, AFullQueueBlocksTheHost)
{
    // Q = 4, ten launches of 1 µs host and 100 µs GPU. Op k (1-based) ends at 1 + 100 k. Launches
    // 1-4 end at 1..4; launch 5 waits for op 1 (101) and ends at 102, launch i waits for op i - 4:
    // launch 10 ends at 601 + 1 = 602. Blocked: (101 - 4) + 5 x 99 = 592 µs.
    StepSequence seq;
    for (int j = 0; j < 10; ++j)
        seq.ops.push_back({ j * 1.0, 1.0, 100.0, 7 });
    seq.stepHostUs = 10;
    EXPECT_NEAR(replayedDispatchUs(seq, 4), 602, kEps);
    const StyleBlockReplay r = replayStyleBlock(seq, { "none", 0 }, 1, hostWork(0, 4), ReplayCosts {});
    EXPECT_NEAR(r.queueBlockedMsPerStep, 0.592, kEps);
    EXPECT_EQ(r.maxPending, 4);
    // With room for every op, nothing blocks.
    EXPECT_NEAR(replayedDispatchUs(seq, 1021), 10, kEps);
}

TEST(StyleReplay, CalibrationRecoversTheScalesItWasFittedTo)
{
    // A step recorded at twice its real host speed and with 0.5 µs of GPU gap missing per op: the
    // fit to the real D and G gives back host x 0.5 and the gap.
    const StepSequence real = uniform(50, 1000, 300);
    ReplayCalibration inflate;
    inflate.hostScale = 2.0;
    StepSequence recorded = calibrated(real, inflate);
    for (LaunchOp& op : recorded.ops)
        op.gpuUs -= 0.5;
    const ReplayCalibration fit = fitCalibration(recorded, 1.0, 0.300, 1021);
    EXPECT_NEAR(fit.hostScale, 0.5, 1e-9);
    EXPECT_NEAR(fit.gpuGapUs, 0.5, 1e-9);
    EXPECT_NEAR(fit.gpuScale, 1.0, kEps);
    EXPECT_NEAR(gpuTimeUs(calibrated(recorded, fit)), 300, 1e-9);
    // A step that fills the queue: the measured dispatch includes the host's wait for the GPU, and
    // the fit must not read it as host work. 100 launches of 1 µs host (x2 recorded), 100 µs GPU, Q 10.
    StepSequence heavy;
    for (int j = 0; j < 100; ++j)
        heavy.ops.push_back({ j * 2.0, 2.0, 100.0, 7 });
    heavy.stepHostUs = 200;
    const double measuredUs = replayedDispatchUs(calibrated(heavy, { 0, 0.5, 0, 1, 0, "" }), 10);
    EXPECT_GT(measuredUs, 5000); // mostly waiting for the GPU
    const ReplayCalibration heavyFit = fitCalibration(heavy, measuredUs * 1e-3, 10.0, 10);
    EXPECT_NEAR(replayedDispatchUs(calibrated(heavy, heavyFit), 10), measuredUs, 1e-3);
    EXPECT_NEAR(replayRegime(calibrated(heavy, heavyFit), 0).gMs, 10.0, 1e-9);
}

TEST(StyleReplay, WithoutSyncsTakesOutTheSyncsHostTimeAndItsCopy)
{
    // Op at 10, a sync from 50 to 80 whose copy is launched at 50, an op at 90; step ends at 120.
    StepSequence seq;
    seq.ops = { { 10, 5, 20, 7 }, { 50, 4, 2, 7 }, { 90, 5, 20, 7 } };
    seq.syncAtUs = { 50 };
    seq.syncEndUs = { 80 };
    seq.stepHostUs = 120;
    const StepSequence clean = withoutSyncs(seq);
    ASSERT_EQ(clean.ops.size(), 2u);
    EXPECT_DOUBLE_EQ(clean.ops[0].issueUs, 10);
    EXPECT_DOUBLE_EQ(clean.ops[1].issueUs, 60);
    EXPECT_DOUBLE_EQ(clean.stepHostUs, 90);
    EXPECT_TRUE(clean.syncAtUs.empty());
}

TEST(StyleReplay, TheRegimeComesFromTheHostsOwnTimeNotItsWaits)
{
    // 1000 µs of step host time of which 600 are a sync's wait: D is 0.4 ms against G 1.0 ms.
    StepSequence seq;
    seq.ops = { { 0, 10, 1000, 7 } };
    seq.syncAtUs = { 100 };
    seq.syncEndUs = { 700 };
    seq.stepHostUs = 1000;
    const ReplayRegime r = replayRegime(seq, 0);
    EXPECT_NEAR(r.dMs, 0.4, kEps);
    EXPECT_NEAR(r.gMs, 1.0, kEps);
    EXPECT_EQ(r.label, "gpu_bound");
    // Host work counts with D: 1.4 ms against 1.0 is balanced, 2.1 ms dispatch-bound.
    EXPECT_EQ(replayRegime(seq, 1000).label, "balanced");
    EXPECT_EQ(replayRegime(seq, 1700).label, "dispatch_bound");
}

TEST(StyleReplay, MeasuredCostsReplaceTheDefaults)
{
    ReplayCosts costs;
    costs.syncUs = 10;
    EXPECT_DOUBLE_EQ(styleHostCost({ "item", 0 }, costs).readUs, 10);
    EXPECT_DOUBLE_EQ(styleHostCost({ "metrics_item_each", 0 }, costs).readUs, 4 * 10 + 6 * (7 + 2));
    EXPECT_DOUBLE_EQ(styleHostCost({ "progress_bar", 0 }, costs).stepUs, 3);
    EXPECT_DOUBLE_EQ(styleHostCost({ "none", 0 }, costs).readUs, 0);
    costs.measured["item"] = { 42, 1 };
    EXPECT_DOUBLE_EQ(styleHostCost({ "item", 0 }, costs).readUs, 42);
    EXPECT_DOUBLE_EQ(styleHostCost({ "item", 0 }, costs).stepUs, 1);
}

TEST(StyleReplay, AReadRightAfterAnotherOfTheSameStepCostsTheRepeatPrice)
{
    ReplayCosts costs;
    costs.syncUs = 30;
    costs.extraLaunchHostUs = 0;
    costs.extraLaunchUs = 0;
    // Unset, every read of metrics_item_each's four costs syncUs; set, the first does and the
    // three after it cost the repeat price.
    EXPECT_DOUBLE_EQ(styleHostCost({ "metrics_item_each", 0 }, costs).readUs, 4 * 30);
    costs.repeatSyncUs = 10;
    EXPECT_DOUBLE_EQ(styleHostCost({ "metrics_item_each", 0 }, costs).readUs, 30 + 3 * 10);
    // A style with one read is not touched by it.
    EXPECT_DOUBLE_EQ(styleHostCost({ "item", 0 }, costs).readUs, 30);
    EXPECT_DOUBLE_EQ(styleHostCost({ "none", 0 }, costs).readUs, 0);
}

TEST(StyleReplay, TheHostIsRefittedToTheMeasuredBaselineOnlyWhereItMatters)
{
    // Host-bound: 40 launches of 25 µs host (D = 1 ms), 2 µs GPU each. A baseline measured at
    // 1.5 ms per step (blocks of 10) means the host ran 1.5x slower than captured.
    const StepSequence hostBound = uniform(40, 1000, 80);
    ReplayCosts costs;
    double scale = 0;
    const StepSequence fitted = fitHostToBaseline(hostBound, costs, 10, 0, 1.5, &scale);
    ReplayOptions o;
    o.syncUs = costs.syncUs;
    EXPECT_NEAR(replayStyleBlock(fitted, { "none", 0 }, 10, o, costs).msPerStep, 1.5, 1e-6);
    EXPECT_GT(scale, 1.4);
    // GPU-bound (G = 4 ms against D = 1 ms): a baseline within 2% of the replay leaves the host as it is.
    const StepSequence gpuBound = uniform(40, 1000, 4000);
    const double replayed = replayStyleBlock(gpuBound, { "none", 0 }, 10, o, costs).msPerStep;
    fitHostToBaseline(gpuBound, costs, 10, 0, replayed * 1.01, &scale);
    EXPECT_DOUBLE_EQ(scale, 1.0);
}

TEST(StyleReplay, TheTailIsFittedToTheMeasuredLagOfADispatchBoundLoop)
{
    // Dispatch-bound (H = 2 ms, D = 1 ms, G = 0.8 ms): the replayed GPU keeps up, so the lag at a
    // step's end is the last op's 20 µs, which starts as its launch ends there; a measured lag of
    // 0.3 ms moves the missing 0.28 ms of GPU time to the last op, G unchanged, and item then
    // waits the measured 0.3 ms.
    const StepSequence seq = uniform(40, 1000, 800);
    ReplayCosts costs;
    double tail = -1;
    const StepSequence fitted = fitTailToLag(seq, costs, 10, 2000, 0.3, &tail);
    EXPECT_NEAR(tail, 0.28, 1e-9);
    EXPECT_NEAR(gpuTimeUs(fitted), 800, 1e-9);
    EXPECT_NEAR(fitted.ops.back().gpuUs, 20 + 280, 1e-9);
    ReplayOptions o;
    o.hostWorkUs = 2000;
    o.syncUs = costs.syncUs;
    const auto p = predictStyles(fitted, { { "none", 0 }, { "item", 0 } }, 0, o, costs);
    EXPECT_NEAR(p[1].syncWaitMs, 0.3, 1e-9);
    // GPU-bound, or a lag as long as a step's GPU time (a queue of steps): nothing moves.
    fitTailToLag(uniform(40, 1000, 4000), costs, 10, 0, 0.3, &tail);
    EXPECT_DOUBLE_EQ(tail, 0);
    fitTailToLag(seq, costs, 10, 2000, 0.9, &tail);
    EXPECT_DOUBLE_EQ(tail, 0);
}

TEST(StyleReplay, TheGpusStartOnAnIdleQueueIsFittedToTheMeasuredStepFromIdle)
{
    // GPU-bound: 40 launches of 25 µs host (D = 1 ms), 100 µs GPU each (G = 4 ms). Replayed from an
    // idle GPU the step drains at the first launch's end plus G: 4.025 ms. Measured 4.325 ms: the
    // GPU starts its work 300 µs late after an idle queue.
    const StepSequence seq = uniform(40, 1000, 4000);
    EXPECT_NEAR(replayedDrainUs(seq, 1021), 4025, 1e-9);
    double start = -1;
    const StepSequence fitted = fitIdleStartToDrain(seq, 4.325, &start);
    EXPECT_NEAR(start, 300, 1e-6);
    EXPECT_NEAR(replayedDrainUs(fitted, 1021), 4325, 1e-6);
    // item, which drains the queue every step, pays the 300 µs at every step; the baseline, whose
    // queue stays full, once per block (its first step), as the runner's blocks start from idle.
    ReplayCosts costs;
    ReplayOptions o;
    o.syncUs = costs.syncUs;
    const auto plain = predictStyles(seq, { { "none", 0 }, { "item", 0 } }, 10, o, costs);
    const auto late = predictStyles(fitted, { { "none", 0 }, { "item", 0 } }, 10, o, costs);
    EXPECT_NEAR(late[0].stepMs - plain[0].stepMs, 0.300 / 10, 1e-9);
    EXPECT_NEAR(late[1].stepMs - plain[1].stepMs, 0.300, 1e-9);
    // A measured drain the replay already reaches, or none measured, sets nothing.
    fitIdleStartToDrain(seq, 4.0, &start);
    EXPECT_DOUBLE_EQ(start, 0);
    EXPECT_DOUBLE_EQ(fitIdleStartToDrain(seq, 0, &start).idleStartUs, 0);
    EXPECT_DOUBLE_EQ(start, 0);
    // The whole fit carries it: the baseline as replayed, and the drain as measured. The measured
    // drain ends with a synchronize's return, which the replay prices as one round trip (syncUs,
    // 8 µs) wherever a style reads: the start takes up the rest.
    const double baselineMs = replayStyleBlock(seq, { "none", 0 }, 10, o, costs).msPerStep;
    const ReplayFit fit = fitReplayToBaseline(seq, costs, 10, 0, baselineMs, 0, 4.325);
    EXPECT_NEAR(fit.idleStartUs, 300 - costs.syncUs, 1e-6);
    EXPECT_NEAR(replayedDrainUs(fit.step, 1021) + costs.syncUs, 4325, 1e-6);
    EXPECT_DOUBLE_EQ(fitReplayToBaseline(seq, costs, 10, 0, baselineMs, 0).idleStartUs, 0);
    // A step dispatch-bound by itself (D = 1 ms, G = 80 µs) keeps its GPU start: what is left at
    // its end follows the host. Host work in front of a GPU-bound step does not make it so.
    const StepSequence hostBound = uniform(40, 1000, 80);
    EXPECT_DOUBLE_EQ(fitReplayToBaseline(hostBound, costs, 10, 0, 1.0, 0, 1.5).idleStartUs, 0);
    EXPECT_NEAR(fitReplayToBaseline(seq, costs, 10, 10000, 0, 0, 4.325).idleStartUs, 300 - costs.syncUs, 1e-6);
}

TEST(StyleReplay, HostWorkBeforeTheSyncHidesTheTail)
{
    // A 500 µs kernel launched at the step's end (longLastKernel). With
    // H = 1000 µs at the step's start, item waits the whole 500 µs; with H between the launches and
    // the read, the kernel runs under it and item waits nothing.
    const StepSequence seq = longLastKernel();
    ReplayCosts costs;
    ReplayOptions o = hostWork(1000);
    EXPECT_NEAR(predictStyles(seq, { { "item", 0 } }, 0, o, costs)[0].syncWaitMs, 0.500, kEps);
    o.hostWorkBeforeSync = true;
    const auto p = predictStyles(seq, { { "none", 0 }, { "item", 0 } }, 0, o, costs);
    EXPECT_NEAR(p[1].syncWaitMs, 0, kEps);
    EXPECT_NEAR(p[0].stepMs, 1.100, kEps); // the baseline does not care where H goes
    EXPECT_NEAR(p[1].stepMs - p[0].stepMs, 0.008, kEps); // item pays only L
}

namespace {

// A forward on the loop's thread, then a backward on another (the autograd engine's), as profiled:
// ten launches 100 µs apart from 60 (10 µs host, 50 µs GPU each), then ten 60 µs apart from 1060
// (10 µs host, 200 µs GPU each). Five recorded host events precede each launch, 10 µs apart from
// 50 µs before it (its op, its dispatch), on its launch's thread. The step's host time is 1650 µs;
// G = 2.5 ms.
// A launch at `at` (10 µs of host, gpuUs of GPU) after `events` recorded host events, 10 µs apart
// from 50 µs before it, on the loop's thread or another.
void addLaunch(StepSequence& seq, double at, double gpuUs, int events, bool offLoop)
{
    for (int e = 0; e < events; ++e) {
        seq.hostEventUs.push_back(at - 50 + 10 * e);
        seq.hostEventOffLoop.push_back(offLoop ? 1 : 0);
    }
    seq.ops.push_back({ at, 10.0, gpuUs, 7 });
}

StepSequence forwardThenBackward()
{
    StepSequence seq;
    for (int j = 0; j < 20; ++j) {
        const bool backward = j >= 10;
        addLaunch(seq, backward ? 1060 + (j - 10) * 60.0 : 60 + j * 100.0, backward ? 200.0 : 50.0, 5, backward);
    }
    seq.stepHostUs = 1650;
    return seq;
}

} // namespace

TEST(StyleReplay, TheProfilersCostPerEventCanDifferBetweenTheLoopsThreadAndTheOthers)
{
    const StepSequence seq = forwardThenBackward();
    ReplayCalibration c;
    c.perEventUs = 4;
    // The same cost everywhere: 100 events x 4 µs come out of the step; the first backward launch
    // moves back by the 55 events before it.
    const StepSequence even = calibrated(seq, c);
    EXPECT_NEAR(even.stepHostUs, 1650 - 400, kEps);
    EXPECT_NEAR(even.ops[10].issueUs, 1060 - 220, kEps);
    EXPECT_NEAR(even.ops[10].hostUs, 10, kEps);
    // None on the other thread: only the forward's 200 µs come out.
    c.perEventOffLoopUs = 0;
    const StepSequence loopOnly = calibrated(seq, c);
    EXPECT_NEAR(loopOnly.stepHostUs, 1650 - 200, kEps);
    EXPECT_NEAR(loopOnly.ops[10].issueUs, 1060 - 200, kEps);
    EXPECT_NEAR(loopOnly.ops[19].issueUs, 1600 - 200, kEps);
    // 2 µs on the other thread: the backward's events take 10 µs more per launch.
    c.perEventOffLoopUs = 2;
    const StepSequence split = calibrated(seq, c);
    EXPECT_NEAR(split.stepHostUs, 1650 - 200 - 100, kEps);
    EXPECT_NEAR(split.ops[11].issueUs, 1120 - 200 - 20, kEps);
}

TEST(StyleReplay, TheCalibrationStretchesTheRecordedHostEvenlyWhateverItsEvents)
{
    // 1650 µs of host recorded, its forward's events on the loop's thread and its backward's on
    // another, measured unprofiled at 1200 µs: every offset x 1200 / 1650, the events' as well, no
    // cost taken out per event; the GPU's 2.5 ms are all recorded, so no gap is added.
    const StepSequence seq = forwardThenBackward();
    const ReplayCalibration fit = fitCalibration(seq, 1.2, 2.5, 1021);
    const double s = 1200.0 / 1650.0;
    EXPECT_NEAR(fit.hostScale, s, 1e-9);
    EXPECT_DOUBLE_EQ(fit.perEventUs, 0);
    EXPECT_FALSE(fit.perEventOffLoopUs);
    EXPECT_NEAR(fit.gpuGapUs, 0, 1e-9);
    const StepSequence cal = calibrated(seq, fit);
    EXPECT_NEAR(cal.stepHostUs, 1200, 1e-6);
    for (size_t i = 0; i < seq.ops.size(); ++i) {
        EXPECT_NEAR(cal.ops[i].issueUs, seq.ops[i].issueUs * s, 1e-6) << i;
        EXPECT_NEAR(cal.ops[i].hostUs, seq.ops[i].hostUs * s, 1e-6) << i;
    }
    for (size_t j = 0; j < seq.hostEventUs.size(); ++j)
        EXPECT_NEAR(cal.hostEventUs[j], seq.hostEventUs[j] * s, 1e-6) << j;
    // The backward keeps its share of the host: its ten launches span 540 x s µs.
    EXPECT_NEAR(cal.ops[19].issueUs - cal.ops[10].issueUs, 540 * s, 1e-6);
}

TEST(StyleReplay, AStepThatTheEvenStretchDrainsTooLateTakesAShareOfTheCostPerEventFirst)
{
    // A CUDA graph's step as profiled: six events 12 µs apart from 2 µs, then its one launch at
    // 70 µs (50 µs long), 130 µs of host; 185 µs of GPU. Unprofiled, each event cost 10 µs less:
    // the launch from 10 to 60 µs, 70 µs of dispatch, drained at 60 + 185 = 245 µs.
    StepSequence seq;
    for (int e = 0; e < 6; ++e)
        seq.hostEventUs.push_back(2 + 12.0 * e);
    seq.ops = { { 70, 50, 185, 7 } };
    seq.stepHostUs = 130;
    // Stretched evenly to 70 µs, the launch ends at 120 x 70 / 130 = 64.6 µs and drains 4.6 µs late:
    // with that drain measured, the whole cost per event comes back.
    const ReplayCalibration even = fitCalibration(seq, 0.070, 0.185, 1021);
    EXPECT_NEAR(replayedDrainUs(calibrated(seq, even), 1021), 120 * 70.0 / 130 + 185, 1e-6);
    const ReplayCalibration all = fitCalibration(seq, 0.070, 0.185, 1021, 0.245);
    EXPECT_NEAR(all.perEventUs, 10, 1e-6);
    EXPECT_NEAR(all.hostScale, 1, 1e-6);
    EXPECT_TRUE(all.evenFirst);
    // A drain between the two: a share of it, the dispatch kept.
    const ReplayCalibration share = fitCalibration(seq, 0.070, 0.185, 1021, 0.247);
    EXPECT_GT(share.perEventUs, 0);
    EXPECT_LT(share.perEventUs, 10);
    EXPECT_NEAR(replayedDrainUs(calibrated(seq, share), 1021), 247, 1e-3);
    EXPECT_NEAR(replayedDispatchUs(calibrated(seq, share), 1021), 70, 1e-6);
    // A drain the even stretch meets leaves it even.
    EXPECT_DOUBLE_EQ(fitCalibration(seq, 0.070, 0.185, 1021, 0.260).perEventUs, 0);
}

TEST(StyleReplay, TheRecordedHostComesBackFromACalibratedStep)
{
    const StepSequence seq = forwardThenBackward();
    ReplayCalibration c;
    c.perEventUs = 4;
    c.perEventOffLoopUs = 2;
    c.hostScale = 0.8;
    c.gpuScale = 0.5;
    const StepSequence cal = calibrated(seq, c);
    const StepSequence back = uncalibratedHost(cal, c);
    EXPECT_NEAR(back.stepHostUs, seq.stepHostUs, kEps);
    ASSERT_EQ(back.ops.size(), seq.ops.size());
    for (size_t i = 0; i < seq.ops.size(); ++i) {
        EXPECT_NEAR(back.ops[i].issueUs, seq.ops[i].issueUs, kEps) << i;
        EXPECT_NEAR(back.ops[i].hostUs, seq.ops[i].hostUs, kEps) << i;
        EXPECT_NEAR(back.ops[i].gpuUs, cal.ops[i].gpuUs, kEps) << i; // the GPU side stays calibrated
    }
    ASSERT_EQ(back.hostEventUs.size(), seq.hostEventUs.size());
    for (size_t j = 0; j < seq.hostEventUs.size(); ++j)
        EXPECT_NEAR(back.hostEventUs[j], seq.hostEventUs[j], kEps) << j;
}

TEST(StyleReplay, KnotsMapTheHostPhaseByPhase)
{
    // Recorded: a launch at 100 (10 µs long), one at 300, one at 600, the step ends at 700. The
    // phases 0-200 and 200-400 were timed unprofiled at 100 and 300 µs: the first halves, the second
    // stretches by 1.5; after the last knot the host moves by its difference (400 -> 400).
    StepSequence seq;
    seq.ops = { { 100, 10, 5, 0 }, { 300, 10, 5, 0 }, { 600, 10, 5, 0 } };
    seq.stepHostUs = 700;
    seq.hostEventUs = { 100, 300, 600 };
    seq.syncAtUs = { 650 };
    seq.syncEndUs = { 680 };
    ReplayCalibration c;
    c.perEventUs = 3; // a cost per event is not taken as well
    c.hostKnots = { { 0, 0 }, { 200, 100 }, { 400, 400 } };
    const StepSequence cal = calibrated(seq, c);
    EXPECT_NEAR(cal.ops[0].issueUs, 50, kEps);
    EXPECT_NEAR(cal.ops[0].hostUs, 5, kEps);
    EXPECT_NEAR(cal.ops[1].issueUs, 250, kEps);
    EXPECT_NEAR(cal.ops[1].hostUs, 15, kEps);
    EXPECT_NEAR(cal.ops[2].issueUs, 600, kEps);
    EXPECT_NEAR(cal.ops[2].hostUs, 10, kEps);
    EXPECT_NEAR(cal.stepHostUs, 700, kEps);
    EXPECT_NEAR(cal.syncAtUs[0], 650, kEps);
    EXPECT_NEAR(cal.hostEventUs[1], 250, kEps);
    EXPECT_NEAR(cal.ops[1].gpuUs, 5, kEps);
    // The host scale applies after the knots.
    c.hostScale = 2;
    EXPECT_NEAR(calibrated(seq, c).ops[1].issueUs, 500, kEps);
    // And the recorded host comes back.
    const StepSequence back = uncalibratedHost(calibrated(seq, c), c);
    for (size_t i = 0; i < seq.ops.size(); ++i) {
        EXPECT_NEAR(back.ops[i].issueUs, seq.ops[i].issueUs, kEps) << i;
        EXPECT_NEAR(back.ops[i].hostUs, seq.ops[i].hostUs, kEps) << i;
        EXPECT_NEAR(back.hostEventUs[i], seq.hostEventUs[i], kEps) << i;
    }
    EXPECT_NEAR(back.stepHostUs, seq.stepHostUs, kEps);
}

namespace {

// As profiled: ten launches 100 µs apart from 50 with five host events before each (from 50 µs
// before it, 10 µs apart, on the loop's thread), then ten more from 1050 with none; 2000 µs of host,
// 10 µs of GPU per launch.
StepSequence denseThenBare()
{
    StepSequence seq;
    for (int j = 0; j < 20; ++j)
        addLaunch(seq, 50 + j * 100.0, 10.0, j < 10 ? 5 : 0, false);
    seq.stepHostUs = 2000;
    return seq;
}

} // namespace

TEST(StyleReplay, TheBlocksHostTimeScalesTheCapturedStep)
{
    // Captured at 4 µs per event (1800 µs of host); the blocks ran at 1.9 ms. The host that meets
    // them nearest the capture's is 1% under them, 1881 µs: the captured step x 1881 / 1800, its
    // first bare launch at (1050 - 200) x 1881 / 1800.
    const StepSequence raw = denseThenBare();
    ReplayCalibration capture;
    capture.perEventUs = 4;
    const StepSequence captured = calibrated(raw, capture);
    EXPECT_NEAR(captured.stepHostUs, 1800, kEps);
    ReplayCosts costs;
    const ReplayFit scaled = fitReplayToBaseline(captured, costs, 10, 0, 0, 0, 0, std::vector<double>(5, 1.9));
    EXPECT_NEAR(scaled.hostScale, 1881.0 / 1800.0, 1e-6);
    EXPECT_NEAR(scaled.regime.dMs, 1.881, 1e-6);
    EXPECT_NEAR(scaled.step.ops[10].issueUs, 850 * 1881.0 / 1800.0, 1e-3);
    // Blocks slower than the step as profiled: the same.
    EXPECT_NEAR(fitReplayToBaseline(captured, costs, 10, 0, 0, 0, 0, { 2.1 }).hostScale, 2079.0 / 1800.0, 1e-6);
    // Blocks within 1% of the capture leave it as it is.
    EXPECT_DOUBLE_EQ(fitReplayToBaseline(captured, costs, 10, 0, 0, 0, 0, { 1.81 }).hostScale, 1);
}

TEST(StyleReplay, TheBaselineBlocksHostTimesSetTheHostAndTheSpreadOfThePrediction)
{
    // GPU-bound at 1 ms of host for 1.2 ms of GPU (uniform, 40 launches), blocks of 10.
    const StepSequence seq = uniform(40, 1000, 1200);
    ReplayCosts costs;
    const std::vector<StyleSpec> styles { { "item", 0 } };
    const auto at = [&](std::vector<double> blocks) { return fitReplayToBaseline(seq, costs, 10, 0, 0, 0, 0, blocks); };
    // Every block at 1.1 ms: the host is the one within 1% of them nearest the step's 1 ms, 1.089 ms,
    // each decile the same, and the prediction is the one host's.
    const ReplayFit same = at(std::vector<double>(9, 1.1));
    EXPECT_NEAR(same.hostScale, 1.089, 1e-6);
    EXPECT_NEAR(same.regime.dMs, 1.089, 1e-6);
    ASSERT_EQ(same.spreadScales.size(), 9u);
    for (const double s : same.spreadScales)
        EXPECT_NEAR(s, 1.0, 1e-12);
    const double one = replayPredictions(same.step, costs, styles, 10, 0, same.regime.label)[0].overheadPct;
    EXPECT_NEAR(replayPredictions(same, costs, styles, 10, 0)[0].overheadPct, one, 1e-9);
    // Half the blocks at 0.8 ms, half at 1.4 ms (the median between): the host is the median, and
    // the prediction is the mean log ratio of the two speeds, which is not the median speed's.
    std::vector<double> blocks(10, 0.8);
    std::fill(blocks.begin() + 5, blocks.end(), 1.4);
    const ReplayFit spread = at(blocks);
    EXPECT_NEAR(spread.blockDispatchMs, 1.1, 1e-9);
    EXPECT_NEAR(spread.regime.dMs, 1.089, 1e-6);
    const auto taxAt = [&](double ms) {
        const ReplayFit f = at({ ms });
        return replayPredictions(f.step, costs, styles, 10, 0, f.regime.label)[0].overheadPct;
    };
    double logSum = 0;
    for (const double ms : { 0.8, 0.8, 0.8, 0.8, 1.1, 1.4, 1.4, 1.4, 1.4 }) // the deciles of `blocks`
        logSum += std::log1p(taxAt(ms) * 1e-2);
    const double expected = std::expm1(logSum / 9) * 1e2;
    EXPECT_NEAR(replayPredictions(spread, costs, styles, 10, 0)[0].overheadPct, expected, 1e-6);
    EXPECT_GT(std::abs(expected - one), 0.3) << expected << " against " << one;
    // Without the blocks' host times (older files) the host follows the baseline's block time.
    EXPECT_TRUE(at({}).spreadScales.empty());
}

TEST(StyleReplay, BlocksPacedByAFullQueueKeepTheCapturedHost)
{
    // 1500 launches a step (more than the queue's 1021) over 600 µs of host and 1500 µs of GPU,
    // blocks of 5 from an idle GPU: the queue fills in the second step, and from then on the host
    // issues a launch as the GPU finishes one. The block's host time is then the GPU's pace: its
    // last launch goes in when the GPU has finished launch 7500 - 1021, about 6479 µs, 1.296 ms a
    // step. Every host fast enough to fill the queue times the same, so the blocks say only that
    // the host is that fast: it stays the captured 0.6 ms, not 1.296 ms of its own.
    const StepSequence seq = uniform(1500, 600, 1500);
    ReplayCosts costs;
    const ReplayFit fit = fitReplayToBaseline(seq, costs, 5, 0, 0, 0, 0, std::vector<double>(9, 1.296));
    EXPECT_DOUBLE_EQ(fit.hostScale, 1);
    EXPECT_NEAR(fit.regime.dMs, 0.6, 1e-9);
    EXPECT_EQ(fit.regime.label, "gpu_bound");
    for (const double s : fit.spreadScales)
        EXPECT_DOUBLE_EQ(s, 1);
    // A block that would take longer than the full queue's pace needs a host slower than the GPU's
    // start lets through: its own time then is the block's.
    const ReplayFit slow = fitReplayToBaseline(seq, costs, 5, 0, 0, 0, 0, std::vector<double>(9, 1.8));
    EXPECT_NEAR(slow.regime.dMs, 1.8, 0.02 * 1.8);
    EXPECT_EQ(slow.regime.label, "balanced");
}

TEST(StyleReplay, TheWithinBlockSpreadIsTheFirstTwoStepsRatioWithTheBlocksShareTakenOut)
{
    // Ten blocks whose first step is 1.1 x their second and ten whose second is 1.1 x their first, at
    // block speeds from 0.5 to 2.4 ms: the blocks' speeds cancel, and each step's own spread is the
    // ratio's over sqrt 2, around its median (here 1).
    std::vector<std::array<double, 2>> pairs;
    for (int b = 0; b < 20; ++b) {
        const double block = 0.5 + 0.1 * b;
        pairs.push_back(
            b % 2 ? std::array<double, 2> { 1.1 * block, block } : std::array<double, 2> { block, 1.1 * block });
    }
    const std::vector<double> spread = withinBlockSpread(pairs);
    ASSERT_EQ(spread.size(), 20u);
    const double edge = std::pow(1.1, 1 / std::sqrt(2.0));
    EXPECT_NEAR(*std::max_element(spread.begin(), spread.end()), edge, 1e-12);
    EXPECT_NEAR(*std::min_element(spread.begin(), spread.end()), 1 / edge, 1e-12);
    double logSum = 0;
    for (const double f : spread)
        logSum += std::log(f);
    EXPECT_NEAR(logSum, 0, 1e-12); // as many fast as slow
    // The order is shuffled, fast and slow mixed, and the same every time.
    EXPECT_EQ(withinBlockSpread(pairs), spread);
    EXPECT_FALSE(std::is_sorted(spread.begin(), spread.end()));
    // The same first step every block (the ratio is the blocks' alone): no spread from step to step.
    std::vector<std::array<double, 2>> same;
    for (int b = 0; b < 20; ++b)
        same.push_back({ 1.2 * (1 + b), 1.0 * (1 + b) });
    for (const double f : withinBlockSpread(same))
        EXPECT_NEAR(f, 1, 1e-12);
    // Too few blocks: none.
    EXPECT_TRUE(withinBlockSpread(std::vector<std::array<double, 2>>(pairs.begin(), pairs.begin() + 7)).empty());
}

TEST(StyleReplay, ASpreadFromStepToStepIsPaidByTheLoopThatSyncsAndAbsorbedByTheQueue)
{
    // 1 ms of host and 1 ms of GPU a step (40 even launches), blocks of 10. Each step's host 0.8 or
    // 1.2 ms in turn: the baseline's queue carries the GPU's work over the fast steps and the slow
    // ones alike, about 1 ms a step; `item` waits for each fast step's GPU, which ends at about 1.02
    // ms, and pays every slow step's 1.2 ms: a mean of about 1.12 ms, +12% against +2.5% (the GPU's
    // last launch) with the host at 1 ms on every step.
    ReplayFit fit;
    fit.step = uniform(40, 1000, 1000);
    ReplayCosts costs;
    const std::vector<StyleSpec> styles { { "item", 0 } };
    const double even = replayPredictions(fit, costs, styles, 10, 0)[0].overheadPct;
    fit.stepSpread = { 1.0 };
    EXPECT_NEAR(replayPredictions(fit, costs, styles, 10, 0)[0].overheadPct, even, 1e-9);
    fit.stepSpread = { 0.8, 1.2 };
    const double spread = replayPredictions(fit, costs, styles, 10, 0)[0].overheadPct;
    EXPECT_NEAR(even, 2.5 + 100 * costs.syncUs / 1000, 0.5);
    EXPECT_NEAR(spread, 12 + 100 * costs.syncUs / 1000, 1.0);
    // Steps that do not sync do not pay it.
    const double none = replayPredictions(fit, costs, { { "progress_bar", 0 } }, 10, 0)[0].overheadPct;
    EXPECT_LT(std::abs(none), 0.5);
}
