#pragma once

#include "inputcommands.h"
#include "runcommand.h"
#include "simulatecommand.h"
#include "tracecommand.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace synctax {

// synctax-run's commands on its command line. Each add function sets up one subcommand of `app`
// (its options, their help and their checks) to fill its options struct as CLI11 parses, and
// returns it: after the parse, the one given is true.
CLI::App* addRunCommand(CLI::App& app, RunOptions& options);
CLI::App* addValidateCommand(CLI::App& app, ValidateOptions& options);
CLI::App* addPresetsCommand(CLI::App& app);
CLI::App* addPrintConfigCommand(CLI::App& app, PrintConfigOptions& options);
CLI::App* addDiffCommand(CLI::App& app, DiffOptions& options);
CLI::App* addShowCommand(CLI::App& app, ShowOptions& options);
CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options);
CLI::App* addSweepCommand(CLI::App& app, SweepOptions& options);

// trace's options as the parse leaves them: the phases file is read after it, so that a fault of
// the line as a whole is said first.
struct TraceCommandLine {
    TraceOptions options; // all but phasesSpreadMs
    std::string phasesFile; // --phases-file: one F,B,O per line
};
CLI::App* addTraceCommand(CLI::App& app, TraceCommandLine& line);

// trace's options whole: nothing, after the reason was said on stderr, for --host-work-at without
// --host-work-us or a --phases-file that does not read.
std::optional<TraceOptions> finishTraceOptions(const CLI::App& trace, const TraceCommandLine& line);

} // namespace synctax
