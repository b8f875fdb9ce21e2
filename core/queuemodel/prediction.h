#pragma once

#include "core/config/experimentconfig.h"
#include "core/queuemodel/regime.h"
#include "core/queuemodel/stylereplay.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace synctax {

struct QueueModel;

// What the queue model expects a style to cost, from the measured D, G, L, K and H of its model.
struct Prediction {
    double overheadPct = 0; // against the baseline of the same model and mode
    std::string regime; // dispatch_bound, gpu_bound or balanced (core/queuemodel/regime.h)
    // Which model made it: "uniform" (K even launches over D and G) or "replay" (a captured step).
    std::string model = "uniform";
};

// The simulator's model of a measured loop. K falls back to 1 when it could not be counted
// (then the whole step is one launch, as with a CUDA graph). baselineLagMs, the baseline's
// median lag where it was measured, becomes the step's GPU tail (QueueModel::tailMs) when the loop
// is dispatch-bound: only then does each step start on an idle GPU, so that the lag is the step's
// own tail (not a queue of steps, nor the host waiting for the GPU as when D is queue-limited).
QueueModel queueModelFor(const RegimeMeasurement& measured, double baselineLagMs = 0);

// One block of stepsPerBlock steps of the style and of the baseline, simulated without jitter:
// a block is what a real run times, so its fill and drain are priced in.
Prediction predictOverhead(
    const RegimeMeasurement& measured, const StyleSpec& style, int64_t stepsPerBlock, double baselineLagMs = 0);

// The same for several styles, simulating the baseline once.
std::vector<Prediction> predictOverheads(const RegimeMeasurement& measured, const std::vector<StyleSpec>& styles,
    int64_t stepsPerBlock, double baselineLagMs = 0);

// The same from a captured step (core/queuemodel/stylereplay.h): one block of stepsPerBlock steps
// per style from an idle GPU, as the runner times it, with the styles' measured costs.
std::vector<Prediction> replayPredictions(const StepSequence& step, const ReplayCosts& costs,
    const std::vector<StyleSpec>& styles, int64_t stepsPerBlock, double hostWorkUs, const std::string& regime);

// The captured step with its host refitted to the baseline the run measured (ms per step, over
// blocks of stepsPerBlock): the host's speed moves by tens of percent between the capture and the
// timed blocks, and only the blocks time the loop the overheads are measured on. Left as it is
// (scale 1) where the replayed baseline is within 2% already or the step is GPU-bound (its baseline
// is the GPU's time, whatever the host's speed). `scale` receives the factor applied.
StepSequence fitHostToBaseline(const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock,
    double hostWorkUs, double baselineMs, double* scale = nullptr);

// The GPU tail the baseline's measured lag shows. In a dispatch-bound loop (each step starts on an
// idle GPU, so the lag at a step's end is its own tail, not a queue of steps) where the replayed
// baseline's median lag falls short of the measured one, the difference moves to the step's last
// GPU op, taken evenly from the others so G stays: what a sync waits for is then what was measured
// to be still queued. `tailMs` receives what was moved (0 where nothing was).
StepSequence fitTailToLag(const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock, double hostWorkUs,
    double measuredLagMs, double* tailMs = nullptr);

// The GPU's start on an idle queue that the step from an idle GPU shows: where the replayed drain
// of one step (replayedDrainUs) falls short of the measured one (drainMs: from the step's start on
// an idle GPU, after the loop's host work, until the synchronize after it returned, unprofiled), the
// step's idleStartUs is set by bisection so that they meet; the synchronize's own return is part of
// what it takes up. A GPU that has been idle starts its next work late (clocks, the host's wake from
// a wait, the first launch's path), and a loop that syncs every step pays that at every step; a full
// queue never does. 0 where nothing was measured or the replay already drains as late. `idleStartUs`
// receives what was set.
StepSequence fitIdleStartToDrain(const StepSequence& step, double drainMs, double* idleStartUs = nullptr);

// Whether the fit above applies to a captured step: not to one that is dispatch-bound by itself (host
// work aside: the GPU idles under that, then runs the step as any other). Its GPU waits on the host
// inside the step, so what is left at its end follows the host's speed, which moves between the
// capture and the blocks; its own baseline's lag gives that (fitTailToLag), measured in the blocks.
bool fitsIdleStart(const StepSequence& captured);

// A captured step brought to the run's timed blocks: first the GPU's start on an idle queue to the
// measured step from an idle GPU (drainMs; 0: not measured), where fitsIdleStart, at the capture's
// host speed. That drain ends with a synchronize's return, which the replay prices as one round trip
// (costs.syncUs) where a style reads and at a block's end: the start is fitted to the drain less that
// (else a loop that reads every step pays the wake-up twice: tiny_mlp's CUDA graph on the H200,
// a 0.19 ms step: `item` +26.5% predicted against +20.8% measured). Then the host is brought to the
// baseline's blocks, then the tail to its lag (both from the baseline alone).
//
// The host: where the baseline's blocks timed the host's time per step (blockDispatchMs, one per
// block), the step's host is fitted so that the same block replayed times their median, and the
// replay spreads over hosts fitted to their deciles. What the blocks time includes the full queue's
// blocking: a host faster than the GPU fills the queue within a block, and its later steps run at the
// GPU's pace (ResNet-50 on the H200: 22 ms of host, then 33 ms steps), so their mean is not the
// host's own time; replaying the block counts the blocking as the block did. The host's
// speed moves from block to block (by ±20% on the H200's host, within seconds), and near the balance
// a sync's cost is far from linear in it: a block whose host is slower than the GPU pays the whole
// tail, one whose host is faster pays only the GPU's start. Without them (older files), the host is
// refitted to the baseline's block time (fitHostToBaseline) and the replay runs at that one speed.
struct ReplayFit {
    StepSequence step; // at the median host
    double hostScale = 1; // the captured step's host x this (at the median)
    double tailMs = 0;
    double idleStartUs = 0;
    ReplayRegime regime; // of `step`
    // The host at each decile of the baseline's blocks, as factors on `step`'s host; empty where the
    // blocks' host time was not measured.
    std::vector<double> spreadScales;
    double blockDispatchMs = 0; // the median of the baseline's blocks' host time per step; 0: none
    std::vector<double> blockDecilesMs; // their deciles 1-9, which spreadScales meet
    // The host's spread from step to step within a block, as factors on a step's host, in the order
    // the replay gives them to consecutive steps (withinBlockSpread); empty: every step of a block alike.
    std::vector<double> stepSpread;
};
ReplayFit fitReplayToBaseline(const StepSequence& captured, const ReplayCosts& costs, int64_t stepsPerBlock,
    double hostWorkUs, double baselineMs, double baselineLagMs, double drainMs = 0,
    const std::vector<double>& blockDispatchMs = {});

// The host's spread from step to step within a block, from the baseline's blocks' first two steps
// (BlockTiming::firstStepsDispatchMs: from an idle GPU, before the queue fills, so both time the host
// itself). What the two steps of one block share (the block's speed, which the deciles of
// blockDispatchMs carry) cancels in their log ratio; what is left, less its median (the first step
// from an idle GPU may differ from the second by a constant), is the difference of two steps' own
// variations, so over sqrt 2 it has one step's spread. A loop that syncs every step pays for each slow
// step; the baseline's queue absorbs them: the H200's host moved between about 20 and 37 ms from one
// ResNet-50 step to the next against a GPU of 33 ms, where `item` measured +4.0% and the replay
// without this spread predicted +1.6%. Returns `quantiles` factors (the quantiles of that spread, as
// factors on the host) in a fixed shuffled order, so that fast and slow steps mix within a replayed
// block; empty where fewer than 8 blocks had two steps.
std::vector<double> withinBlockSpread(const std::vector<std::array<double, 2>>& firstStepsMs, int quantiles = 20);

// The styles' predictions from a fit: over its spread of host speeds where it has one (the mean of
// the log step times at each decile, style and baseline alike, as the runner's paired estimate
// averages the log ratios of rounds), else at its one host. With a stepSpread, each step of a replayed
// block is at its decile's host times the next factor of the spread, over blocks that together give
// every factor at least once, the style and the baseline over the same steps.
std::vector<Prediction> replayPredictions(const ReplayFit& fit, const ReplayCosts& costs,
    const std::vector<StyleSpec>& styles, int64_t stepsPerBlock, double hostWorkUs);

} // namespace synctax
