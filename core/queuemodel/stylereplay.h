#pragma once

#include "core/config/experimentconfig.h"
#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/replaysimulator.h"
#include "core/steps/steprecord.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace synctax {

// What a style's own work costs the host, per step: at a step where it reads (on an idle GPU: its
// copies, round trips and formatting together) and at the other steps (a bar update, a small
// launch). Measured by the engine per style (core/engine), or taken from ReplayCosts' defaults.
struct StyleHostCost {
    double readUs = 0;
    double stepUs = 0;
    // The same read timed right after a synchronize, as L is: not charged, kept to show how much
    // less it costs there than after a step (0: not measured).
    double readAfterSynchronizeUs = 0;
};

// The costs the replay charges the logging styles, beside the recorded sequence.
struct ReplayCosts {
    double syncUs = 8; // L: one read-back's round trip on an idle GPU (C++ .item() on the H200)
    // A read right after another read of the same step (metrics_item_each's second to fourth
    // scalar): the GPU idle, the host's path to it warm. Unset: syncUs.
    std::optional<double> repeatSyncUs;
    double formatUs = 3; // a progress bar update that redraws at most every 0.1 s
    double redrawUs = 30; // a forced redraw or a printed line (postfix, print, writer)
    double extraLaunchUs = 2; // GPU time of each small launch a style adds (an add, a copy, a metric)
    double extraLaunchHostUs = 7; // host time of such a launch
    // How much longer the host takes over a step that follows a read-back than over one that follows
    // no read, from pairs of blocks of steps in a loop whose host sets the pace, every step of one
    // block after a read (core/engine/run/launchcapture.cpp; earlier files: pairs of single steps);
    // charged at each read that a step of the block follows. 0 where it was not measured.
    double afterSyncUs = 0;
    int afterSyncPairs = 0; // the pairs behind afterSyncUs; 0: not measured
    // Measured costs by style name; a style listed here is charged these instead of the defaults.
    std::map<std::string, StyleHostCost> measured;
    std::string source = "defaults"; // "measured on cuda:0", "defaults": said beside each prediction
};

// The cost charged to a style: the measured one when there is one, else the defaults from its
// catalog entry (round trips x syncUs plus its host work at a read; its host work and launches at
// the other steps). The baseline and styles outside the catalog cost nothing.
StyleHostCost styleHostCost(const StyleSpec& style, const ReplayCosts& costs);

// "; a step after a read-back dispatches 14.2 us slower (100 pairs)" where it was measured, else "".
std::string afterSyncText(const ReplayCosts& costs);

struct StyleBlockReplay {
    double msPerStep = 0; // the block's duration over its steps, the closing synchronize included
    double syncWaitMsPerStep = 0; // host time waiting in syncs (the style's and the recorded ones)
    double queueBlockedMsPerStep = 0; // host time blocked on a full queue
    std::int64_t maxPending = 0; // the most ops queued and not finished
};

// One block as core/engine/run/blockrunner.cpp runs it: from an idle GPU, each step H then the recorded
// step, then the style's work (its extra launches; at a read, a wait for the GPU, then readUs and,
// where a step follows, afterSyncUs; at the other steps stepUs), then the closing synchronize (one
// syncUs). options.steps is ignored; options.syncUs
// prices the sequence's own recorded syncs.
StyleBlockReplay replayStyleBlock(const StepSequence& seq, const StyleSpec& style, std::int64_t stepsPerBlock,
    const ReplayOptions& options, const ReplayCosts& costs);

// The same block with one record per step appended to `records`, in ns from the block's start, for
// drawing it as the Simulator's records are drawn: the step's start (before H), its launches queued,
// its GPU work done, the style's work done.
StyleBlockReplay replayStyleBlock(const StepSequence& seq, const StyleSpec& style, std::int64_t stepsPerBlock,
    const ReplayOptions& options, const ReplayCosts& costs, std::vector<StepRecord>* records);

// The same block with each step's own sequence: step k replays steps[(first + k) % steps.size()] (the
// same launches at another host speed, say). `steps` must not be empty.
StyleBlockReplay replayStyleBlock(const std::vector<StepSequence>& steps, std::size_t first, const StyleSpec& style,
    std::int64_t stepsPerBlock, const ReplayOptions& options, const ReplayCosts& costs);

struct StyleReplayPrediction {
    StyleSpec style;
    double stepMs = 0;
    double taxPct = 0; // against the baseline ("none") replayed the same way
    double syncWaitMs = 0; // per step
};

// Every style's step time and tax. stepsPerBlock > 0: blocks as the runner times them; 0: a long
// loop's steady state, from a block of 2N steps minus one of N (N >= 20, whole periods of every
// style), so the queue's fill and the closing synchronize cancel out. Deterministic.
std::vector<StyleReplayPrediction> predictStyles(const StepSequence& seq, const std::vector<StyleSpec>& styles,
    std::int64_t stepsPerBlock, const ReplayOptions& options, const ReplayCosts& costs);

// How a profiled sequence was brought to unprofiled timing.
struct ReplayCalibration {
    // The profiler's own host cost per recorded host event (StepSequence::hostEventUs), taken out
    // where each event lies. Applied first, then hostScale. An imported trace's calibration, and a
    // share of one in a capture whose even stretch drains too late (fitCalibration).
    double perEventUs = 0;
    double hostScale = 1; // recorded host offsets, launch costs and step host time x this
    double gpuGapUs = 0; // added to every GPU op: the GPU's own gap between dependent ops
    double gpuScale = 1; // GPU durations x this, when the recorded ops add up to more than the target
    double hostUncertaintyPct = 0; // how far the host scale may be off, in percent (0: not known)
    std::string how; // one line: what the scales were fitted to
    // The cost per event on the other host threads (StepSequence::hostEventOffLoop) where it was
    // fitted apart from the loop's own; else perEventUs. Written by earlier captures, which split
    // the cost between the threads to meet the step's drain.
    std::optional<double> perEventOffLoopUs;
    // How much later than measured such a capture's replayed step from an idle GPU still drained with
    // nothing left on the other threads (µs); 0 where the split met the drain or was not made.
    double splitDrainShortUs = 0;
    // Recorded host offsets and the unprofiled offsets they map to, both increasing: the host map
    // is linear between them and moves by the last pair's difference after it (a step's phases
    // mapped onto their unprofiled times, ImportedLoopOptions::phasesMs). Where set, it takes the
    // place of the per-event cost; hostScale still applies after it.
    std::vector<std::pair<double, double>> hostKnots;
    // Fitted as fitCalibration fits now: evenly, a share of the cost per event toward the drain.
    // False in files written before, which took the cost per event alone (recalibratedCapture in
    // core/analysis/replayfit.h fits them again).
    bool evenFirst = false;
};

StepSequence calibrated(const StepSequence& seq, const ReplayCalibration& calibration);

// The host side of a sequence as recorded, from one that `calibration` made: each offset gets back the
// profiler's cost taken out before it and loses the host scale. The GPU ops stay as they are. Where
// two events were closer than the cost (calibrated() kept them in order), they come back together.
StepSequence uncalibratedHost(const StepSequence& seq, const ReplayCalibration& calibration);

// The step with its recorded syncs taken out: the host's time inside each (the wait and the
// call) removed and the later offsets moved back by it, with the launches made inside it.
StepSequence withoutSyncs(const StepSequence& seq);
// The step with only the syncs `drop` marks (one flag per sync) taken out, as above; the others kept,
// moved back by the host time removed before them.
StepSequence withoutSyncs(const StepSequence& seq, const std::vector<bool>& drop);

// GPU time of the sequence's ops, in µs.
double gpuTimeUs(const StepSequence& seq);

// The host time of one step replayed from an idle GPU, with the queue blocking when full (µs).
double replayedDispatchUs(const StepSequence& seq, std::int64_t queueCapacity);

// The same step's drain: from its start on an idle GPU until its host is done and its GPU work has
// finished (µs), when a sync right after it would stop waiting.
double replayedDrainUs(const StepSequence& seq, std::int64_t queueCapacity);

// A step's drain as the runner times it from an idle GPU (drainMs, up to its closing synchronize)
// less that synchronize's round trip (syncUs), which the replayed step does not pay; 0 where the
// drain was not measured.
double drainBeforeSyncMs(double drainMs, double syncUs);

// The calibration that makes the sequence take gMs of GPU time per step and, replayed from an idle
// GPU, dispatchMs of host time: its recorded host stretched evenly (hostScale, by bisection). The
// queue's blocking is part of the replay, so a step that fills the queue is fitted without counting
// its wait as dispatch.
//
// Evenly, not by a cost per recorded host event (perEventUs): on the H200 the runner's ResNet-50
// step, profiled at 33 ms of host for 19 to 27 ms unprofiled, keeps by a cost per event a forward
// and the first half of its backward too slow for the second half, so that even a host slower than
// the GPU left it about 9 ms behind at the step's end. The blocks' own steps say otherwise: the wait
// of a sync right after the step was G - D + 0.6 to 0.9 ms for D from 16 to 29 ms, at every host
// work, in three runs on the H200 (docs/method.md).
//
// With drainMs (the same step's drain from an idle GPU, unprofiled; 0: not measured), where the even
// stretch drains later than that and the step's host events are known: a share of the cost per
// event that alone would meet the dispatch is taken out at the events and the rest stretched, the
// share that meets the drain (all of it where none does, none where the cost per event drains no
// sooner). A CUDA graph's step is such a one: the profiler's cost lies at the few events before its
// one launch, which the even stretch puts halfway through the step.
ReplayCalibration fitCalibration(
    const StepSequence& seq, double dispatchMs, double gMs, std::int64_t queueCapacity, double drainMs = 0);

// D and G of the calibrated sequence, and the regime in classifyRegime's words: D is the host's own
// time per step (no waits), so a step that fills the queue does not read as dispatch.
struct ReplayRegime {
    double dMs = 0;
    double gMs = 0;
    std::string label;
};
ReplayRegime replayRegime(const StepSequence& seq, double hostWorkUs);
// regime.h's pace tests of that step's D and G with the host work H.
bool gpuSetsThePace(const StepSequence& seq, double hostWorkUs);
bool hostSetsThePace(const StepSequence& seq, double hostWorkUs);

// The step whose host time is the median of the steps', as the one a replay stands for (the
// first steps after a profiler starts are often slower). Empty when there are no steps.
StepSequence medianStep(const std::vector<StepSequence>& steps);
std::size_t medianStepIndex(const std::vector<StepSequence>& steps); // 0 when there are none

// The host's time inside the step's recorded syncs (their waits and calls), µs.
double syncWaitsUs(const StepSequence& seq);

} // namespace synctax
