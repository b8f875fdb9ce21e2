#pragma once

#include "core/analysis/kinetotrace.h"
#include "core/analysis/tracereport.h"
#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/stylereplay.h"

#include <array>
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
    // The profiler's host cost of one recorded host event (an op, a Python frame, a runtime call):
    // fitted per loop to the unprofiled step time of the Python loops recorded on the H200
    // (tests/data/traces/torch-2.11-h200/measurements/whatif.json): 2.4 to 6.2 us, median 2.9.
    double profilerUsPerEvent = 2.9;
    double profilerUsPerEventUncertainty = 1.5; // how far that may be off for another loop or machine
    // A Python `loss.item()` after a training step, once the GPU has finished the step's work: the
    // call, the copy and the stream synchronize. On the H200, tiny_mlp's read in its loop (whose GPU
    // is idle by then) took 28 to 35 us over six starts, and 28.0 us right after the step and 30.0
    // us after 500 us more of host work (scripts/python-sync-cost.py); the same call on a ready
    // scalar right after torch.cuda.synchronize() took 10.9 us (11 to 15 in the file above).
    double syncUs = 30;
    // A read right after another of the same step (metrics_item_each's second to fourth): 10.2 us
    // there (scripts/python-sync-cost.py, second_item).
    double repeatSyncUs = 10;
    std::int64_t queueCapacity = 1021; // launches queued before a launch blocks (H200)
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
    LoopPhaseBounds phases; // its phases; none where the trace marks no steps
    bool stepsMarked = false;
    // The GPU's gap between queued ops of a stream, as the trace has it (queuedGpuGapUs), added to
    // each op's GPU time; none where the trace has too few queued ops to tell.
    std::optional<double> queuedGapUs;
};

ImportedLoop importedLoop(const KinetoTrace& trace, const TraceReport& report, const ImportedLoopOptions& options);

// Phase times as `--phases-ms` and the app's Phases field take them: "F,B,O" in ms (commas, spaces
// or both between), each 0.001 to 1e6. `problem` says why not, in the words of a simulation file's
// error ("expected three numbers F,B,O (ms), found '9,13'", "0 is out of range; expected 0.001 to
// 1e+06"); empty when `ms` is set.
struct PhasesRead {
    std::optional<std::array<double, 3>> ms;
    std::string problem;
};
PhasesRead readPhasesMs(const std::string& text);

// The same loop calibrated with other options (the app's phase times), without the trace.
ImportedLoop recalibrated(ImportedLoop loop, const ImportedLoopOptions& options);

struct WhatIfRow {
    std::string style; // a catalog style, or "as_recorded": the loop with its own syncs
    std::int64_t n = 0; // the style's interval, for the *_every_n styles
    double stepMs = 0;
    double taxPct = 0; // against "none": the same loop with no per-step sync
};

struct WhatIf {
    double hostWorkUs = 0; // host work added per step ("if your data loading took 5 ms more")
    bool hostWorkBeforeSync = false; // added after the step's launches, before its read
    std::vector<WhatIfRow> rows; // as_recorded first, then the styles in catalog order
    std::string model; // which model and calibration made the rows, in one line
    double uncertaintyPct = 0; // of the host time the rows assume
};

// The styles a what-if lists: every catalog style with its default interval (the controls left out).
std::vector<StyleSpec> whatIfStyles();

// A long loop's steady state (predictStyles with no blocks) for each style, with hostWorkUs more
// host work per step. Empty rows when the loop is not available.
// With hostWorkBeforeSync the host work goes after the step's launches, before the style's read (a
// loop that logs or checkpoints there); else at the step's start (data loading).
WhatIf whatIf(const ImportedLoop& loop, double hostWorkUs, bool hostWorkBeforeSync = false);

} // namespace synctax
