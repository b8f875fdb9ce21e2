#pragma once

#include "core/config/configerror.h"
#include "core/queuemodel/stylereplay.h"
#include "core/trace/kinetotrace.h"
#include "core/trace/tracereport.h"
#include "core/trace/tracesequences.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// How an imported trace is brought to the unprofiled loop it recorded.
struct ImportedLoopOptions {
    // The user's unprofiled step time (`--step-ms`): the host scale is fitted so that the loop as
    // recorded replays at it. Without it, the profiler's cost per recorded host event is taken out.
    std::optional<double> stepMs;
    // The loop's unprofiled host time of its forward (from the step's start to the backward's,
    // zero_grad and data included), backward and optimizer step (ms), each timed from an idle GPU
    // (`--phases-ms`): the trace's phases (LoopPhaseBounds) are mapped onto them, each stretched
    // evenly. Where the trace marks them, this takes the place of the per-event cost and of stepMs.
    std::optional<std::array<double, 3>> phasesMs;
    // The same phases timed again and again over the loop's run (`--phases-file`: one F,B,O per
    // block of steps). The host's speed moves from block to block (on the H200's VM a ResNet-50
    // block's forward took 7 to 15 ms), and near the balance a sync's cost is far from linear in it:
    // a block whose forward is slower than the GPU's leaves the GPU idle after every sync, one that
    // is faster saves little. Where given, the loop is also replayed at up to kSpreadHosts of them
    // (spreadQuantiles) and the what-if averages the log step times there, style and baseline
    // alike, as the runner's paired estimate averages its rounds (replayPredictions does the same
    // over the runner's blocks). phasesMs, where unset, is their median, phase by phase.
    std::vector<std::array<double, 3>> phasesSpreadMs;
    // Where those timings come from, where it is not as given (said on the model line after them).
    std::string phasesSource;
    // The profiler's host cost of one recorded host event (an op, a Python frame, a runtime call):
    // fitted per loop to the unprofiled step time of the Python loops recorded on the H200
    // (tests/data/traces/torch-2.11-h200/measurements/whatif.json): 2.4 to 6.2 us, median 2.9.
    double profilerUsPerEvent = 2.9;
    double profilerUsPerEventUncertainty = 1.5; // how far that may be off for another loop or machine
    // A Python `loss.item()` after a training step, once the GPU has finished the step's work: the
    // call, the copy and the stream synchronize. On the H200, tiny_mlp's read in its loop (whose GPU
    // is idle by then) took 28 to 35 us over six starts, and 28.0 us right after the step and 30.0
    // us after 500 us more of host work (bench/python-sync-cost.py); the same call on a ready
    // scalar right after torch.cuda.synchronize() took 10.9 us (11 to 15 in the file above).
    double syncUs = 30;
    // A read right after another of the same step (metrics_item_each's second to fourth): 10.2 us
    // there (bench/python-sync-cost.py, second_item).
    double repeatSyncUs = 10;
    std::int64_t queueCapacity = 1021; // launches queued before a launch blocks (H200)
    // How far one unprofiled timing (`--step-ms`, `--phases-ms`) may be off as the loop's host time
    // over its run: on the H200's VM a balanced loop's host moved by 5 to 10% from minute to minute
    // (a MobileNetV2 loop paid +6 to +16% for `item` over three 35 s runs).
    double timingUncertaintyPct = 5;
    // The host's calibrated times x this: the what-if's interval replays the loop at either end of
    // its host's uncertainty (whatIf).
    double hostFactor = 1;
    // A line of the user's code ("FILE:LINE", FILE relative or absolute): the what-if also replays
    // the loop with that line's syncs alone taken out (WhatIf::withoutLine), as --ab defer measures
    // deferring them. Empty: none.
    std::string withoutLine;
};

// The trace's loop ready to replay: its median step, calibrated, with and without its syncs.
struct ImportedLoop {
    bool available = false;
    std::string reason; // why not, when not available
    StepSequence recorded; // calibrated; the recorded syncs kept
    StepSequence base; // calibrated; the recorded syncs taken out: the loop with no per-step sync
    ReplayCalibration calibration;
    ReplayCosts costs;
    double recordedSyncsPerStep = 0;
    double hostEventsPerStep = 0; // recorded host events in the median step, every host thread
    double profiledHostMs = 0; // the median step's host time as recorded, its sync waits left out
    StepSequence profiled; // the median step as recorded, for calibrating it again
    // One per profiled.syncAtUs: the innermost user Python frame of that sync ("train.py(87): <module>"),
    // empty where the trace has no stacks.
    std::vector<std::string> profiledSyncFrames;
    LoopPhaseBounds phases; // its phases; none where the trace marks no steps
    bool stepsMarked = false;
    // The GPU's gap between queued ops of a stream, as the trace has it (queuedGpuGapUs), added to
    // each op's GPU time; none where the trace has too few queued ops to tell.
    std::optional<double> queuedGapUs;
    // The loop calibrated at each timing that spreadQuantiles picks of the options'
    // phasesSpreadMs, with and without its syncs (as `recorded` and `base`); empty: one host.
    std::vector<StepSequence> spreadRecorded;
    std::vector<StepSequence> spreadBase;
    ImportedLoopOptions options; // what it was calibrated with
    // What calibration.hostUncertaintyPct (how far the calibrated host time may be off, in percent
    // either way) stands for, in words.
    std::string uncertaintyHow;
    bool calibrated = false; // fitted to an unprofiled timing of the loop, not the profiler's assumed cost
    // Inputs given but not used, each in words ("the step time given (9.00 ms) is out of the host's reach").
    std::vector<std::string> ignored;
    // The trace's own tax (its syncs' GPU bubble over the profiled step), for telling it from the replay's.
    std::optional<double> recordedTaxPct;
};

ImportedLoop importedLoop(const KinetoTrace& trace, const TraceReport& report, const ImportedLoopOptions& options);

// Phase times as `--phases-ms` and the app's Phases field take them: "F,B,O" in ms (commas, spaces
// or both between), each 0.001 to 1e6. `problem` says why not, in the words of a simulation file's
// error ("expected three numbers F,B,O (ms), found '9,13'", "0 is out of range; expected 0.001 to
// 1e+06"); empty when `ms` is set. problemColumn: where in `text` it lies (0-based: the number
// refused, else 0).
struct PhasesRead {
    std::optional<std::array<double, 3>> ms;
    std::string problem;
    std::size_t problemColumn = 0;
};
// `leastMs`: the smallest phase taken (a user's timing: 0.001; the probe's own phases.csv, whose
// phases of a tiny CPU loop can round below that: 0).
PhasesRead readPhasesMs(const std::string& text, double leastMs = 0.001);

// Several timings as the app's Phases field takes them: readPhasesFile's lines, with `;` or a new
// line between. `problem` says why the first one refused was (readPhasesMs's words, after "timing 2: "
// where there are several); blank text is no timing and no problem.
struct PhasesListRead {
    std::vector<std::array<double, 3>> rows;
    std::string problem;
};
PhasesListRead readPhasesList(const std::string& text);

// A `--phases-file`: one F,B,O per line (as readPhasesMs reads them), blank lines and `#` comments
// left out, and a first line without digits taken as a header ("forward,backward,optimizer").
// `errors` locates each line refused (file, line, column) and says what was expected; a file with no
// timing at all is one error.
struct PhasesFileRead {
    std::vector<std::array<double, 3>> rows;
    std::vector<ConfigError> errors;
};
PhasesFileRead readPhasesFile(const std::string& text, const std::string& sourceName, double leastMs = 0.001);
PhasesFileRead loadPhasesFile(const std::string& path);

// The timings a spread replays, fastest first: the one at the middle of each of kSpreadHosts equal
// shares of them by total (all of them where there are no more), so that the slowest and fastest
// tenths weigh as the measurement weighs them; and the median of each phase over all of them.
constexpr std::size_t kSpreadHosts = 20;
std::vector<std::array<double, 3>> spreadQuantiles(std::vector<std::array<double, 3>> rows);
std::array<double, 3> medianPhases(const std::vector<std::array<double, 3>>& rows);

// The same loop calibrated with other options (the app's phase times), without the trace.
ImportedLoop recalibrated(ImportedLoop loop, const ImportedLoopOptions& options);

struct WhatIfRow {
    std::string style; // a catalog style, or "as_recorded": the loop with its own syncs
    std::int64_t n = 0; // the style's interval, for the *_every_n styles
    double stepMs = 0;
    double taxPct = 0; // against "none": the same loop with no per-step sync
    // The tax replayed at either end of the host's uncertainty (ReplayCalibration::hostUncertaintyPct):
    // the row's interval, in the same unit. Equal to taxPct where the uncertainty is 0.
    double taxLowPct = 0;
    double taxHighPct = 0;
};

// The loop with one line's syncs taken out, the others kept (ImportedLoopOptions::withoutLine).
struct WhatIfLine {
    std::string site; // FILE:LINE as given
    int syncs = 0; // that line's syncs in the median step
    int otherSyncs = 0; // the step's syncs kept
    double stepMs = 0;
    // Against the loop as recorded (its own syncs), in percent: what taking them out saves (below 0).
    double changePct = 0;
    double changeLowPct = 0;
    double changeHighPct = 0;
};

// The loop with `site`'s syncs taken out, with hostWorkUs more host work per step, against the loop
// as recorded; nothing where the loop is not available, the trace has no Python frames, or no sync
// of its median step is at that line (`why` says which).
std::optional<WhatIfLine> whatIfWithoutLine(
    const ImportedLoop& loop, const std::string& site, double hostWorkUs = 0, std::string* why = nullptr);

struct WhatIf {
    double hostWorkUs = 0; // host work added per step ("if your data loading took 5 ms more")
    bool hostWorkBeforeSync = false; // added after the step's launches, before its read
    std::vector<WhatIfRow> rows; // as_recorded first, then the styles in catalog order
    std::string model; // which model and calibration made the rows, in one line
    double uncertaintyPct = 0; // of the host time the rows assume, either way (ImportedLoop's)
    std::string uncertaintyHow; // what the rows' intervals stand for
    bool calibrated = false;
    // Where the loop's options name a line: the loop without its syncs, or why there is none.
    std::optional<WhatIfLine> withoutLine;
    std::string withoutLineWhy;
};

// The styles a what-if lists: every catalog style with its default interval (the controls left out).
std::vector<StyleSpec> whatIfStyles();

// A long loop's steady state (predictStyles with no blocks) for each style, with hostWorkUs more
// host work per step. Empty rows when the loop is not available.
// With hostWorkBeforeSync the host work goes after the step's launches, before the style's read (a
// loop that logs or checkpoints there); else at the step's start (data loading).
WhatIf whatIf(const ImportedLoop& loop, double hostWorkUs, bool hostWorkBeforeSync = false);

} // namespace synctax
