#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

struct TraceOptions {
    std::vector<std::string> files; // several: the ranks (or profiling cycles) of one job
    std::string outDir; // when set: the summaries (trace-summary.json, or traceSummaryFileNames per file)
    std::string watchDir; // a folder tensorboard_trace_handler writes into
    bool once = false; // with watchDir: the files there now, then stop
    double timeoutS = 0; // with watchDir: stop after this long; 0: until Ctrl-C
    // The what-if printed after each file's tables (core/trace/tracewhatif.h).
    std::int64_t hostWorkUs = 0; // host work added per step
    std::string hostWorkAt = "step-start"; // or "before-sync": after the step's launches, before its read
    std::optional<double> stepMs; // the loop's unprofiled step time: the host is fitted to it
    std::optional<double> syncUs; // a sync's cost, in place of ImportedLoopOptions' default
    std::optional<std::array<double, 3>> phasesMs; // forward, backward, optimizer: ImportedLoopOptions::phasesMs
    std::vector<std::array<double, 3>> phasesSpreadMs; // ImportedLoopOptions::phasesSpreadMs (--phases-file)
};

// Exit codes: 0 ok, 2 a trace could not be read (its reader's message on stderr) or bad options.
int traceCommand(const TraceOptions& options);

} // namespace synctax
