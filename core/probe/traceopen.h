#pragma once

#include "core/probe/probefolder.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/kinetotrace.h"
#include "core/trace/tracereport.h"
#include "core/trace/tracewhatif.h"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// One trace file as every view of it starts from (the runner's `trace`, the app's Trace window and
// its export, the Teach window): read, analysed, and its loop ready to replay.
struct OpenedTrace {
    std::string path;
    KinetoTrace trace;
    TraceReport report;
    ImportedLoop loop;
};

struct OpenTraceOptions {
    const std::atomic<bool>* cancel = nullptr; // polled while reading and analysing
    std::function<void(const TraceReadProgress&)> reading; // about every MiB read
    std::function<void(double)> analysing; // 0 to 1 over the analysis
    ImportedLoopOptions loop; // how the loop is calibrated (loopOptions)
};

struct OpenTraceResult {
    std::optional<OpenedTrace> opened; // set only when there is no error and no cancel
    std::string error; // located where the reader located it
    bool cancelled = false;
    // Where `path` is a probe's run folder (probefolder.h): what it holds, read even where it has
    // no capture to open.
    std::shared_ptr<const ProbeFolder> probe;
};

// A file, or a probe's run folder: its capture, the loop calibrated to the phases its blocks timed
// unprofiled unless options.loop gives phase times of its own.
OpenTraceResult openTrace(const std::string& path, const OpenTraceOptions& options);

// The loop calibrated to its blocks' first steps where queueFreePhases takes them over the blocks'
// phases (a loop whose GPU is slower than its host; ProbeFolder's phasesMs and blockFirstStepsMs);
// as it is otherwise.
ImportedLoop queueFreeCalibrated(ImportedLoop loop, const std::vector<std::array<double, 3>>& blockPhasesMs,
    const std::vector<std::vector<std::array<double, 3>>>& blockFirstStepsMs);

// The calibration that timings of the loop's phases ask for, as `--phases-ms`, `--phases-file` and
// the app's Phases field give them: none, one timing, or one per block of steps (a spread).
ImportedLoopOptions phasesOptions(const std::vector<std::array<double, 3>>& timings, ImportedLoopOptions options = {});

} // namespace synctax
