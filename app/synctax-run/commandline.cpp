#include "commandline.h"

#include "core/config/configschema.h"
#include "core/config/unsignedtext.h"
#include "core/queuemodel/simulationbounds.h"
#include "core/trace/tracewhatif.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>

namespace synctax {

namespace {

// An option held to the bound that a simulation file holds the same quantity to, refused in the
// same words ("--d-ms: -1 is out of range; expected 0 to 1e+06").
template <typename Bound> CLI::Validator within(const Bound& bound)
{
    std::ostringstream range;
    range << "in [" << bound.min << ", " << bound.max << "]";
    return CLI::Validator([bound](std::string& text) { return outOfBound(bound, text); }, range.str());
}

// An empty value would read as the option left out (its default), without a word.
CLI::Validator notEmpty(const std::string& expected)
{
    return CLI::Validator(
        [expected](std::string& text) { return text.empty() ? "empty; expected " + expected : std::string(); }, "");
}

// A file to read now: what stands in the way in the system's words (a symlink loop, a folder, a FIFO).
CLI::Validator readableFile()
{
    return CLI::Validator(
        [](std::string& path) -> std::string {
            struct stat status { };
            if (stat(path.c_str(), &status) != 0)
                return path + ": " + std::strerror(errno);
            if (S_ISDIR(status.st_mode))
                return path + ": is a folder; expected a file";
            if (!S_ISREG(status.st_mode))
                return path + ": not a regular file; expected a file";
            return "";
        },
        "FILE");
}

// --phases-ms read as the app's Phases field reads it (readPhasesMs).
CLI::Validator asPhases()
{
    return CLI::Validator([](std::string& text) { return readPhasesMs(text).problem; }, "F,B,O");
}

// --seed read as a config reads `seed:` (CLI11 alone wraps -1 around to 2^64 - 1), then handed on
// in decimal, which CLI11 reads back to the same value.
CLI::Validator asConfigReadsASeed()
{
    return CLI::Validator(
        [](std::string& text) {
            const UnsignedRead read = readUnsigned(text);
            if (read.value)
                text = std::to_string(*read.value);
            return read.problem;
        },
        "");
}

// The what-if's step time is positive; a sync costs a second at most. Host work is held to a
// config's host_work_us bounds (configkeys::hostWorkUs), the same quantity.
constexpr NumberKey whatIfStepMs { "step_ms", 0.001, 1e6 };
constexpr NumberKey whatIfSyncUs { "sync_us", 0.0, 1e6 };
// A watch stops after this long: finite, so that NaN or infinity cannot mean "for ever" unasked.
constexpr NumberKey watchTimeoutS { "timeout", 0.001, 1e6 };

// trace's what-if: the loop of each file replayed under each style, as these options change it.
void addWhatIfOptions(CLI::App& trace, TraceCommandLine& line)
{
    TraceOptions& options = line.options;
    trace
        .add_option("--host-work-us", options.hostWorkUs,
            "What if: each style with this much more host work per step (us, an integer), e.g. slower data loading")
        ->capture_default_str()
        ->check(within(configkeys::hostWorkUs));
    trace
        .add_option("--host-work-at", options.hostWorkAt,
            "Where that host work goes: step-start (data loading) or before-sync (after the step's launches, before "
            "its read: logging, a checkpoint)")
        ->capture_default_str()
        ->check(CLI::IsMember({ "step-start", "before-sync" }));
    trace
        .add_option_function<double>(
            "--step-ms", [&options](const double& ms) { options.stepMs = ms; },
            "What if: the loop's step time without the profiler (ms); the replay's host is fitted to it")
        ->check(within(whatIfStepMs));
    trace
        .add_option_function<std::string>(
            "--phases-ms", [&options](const std::string& text) { options.phasesMs = readPhasesMs(text).ms; },
            "What if: the loop's forward (from the step's start), backward and optimizer step without the profiler, "
            "each timed from an idle GPU (ms, three numbers: F,B,O); the trace's phases are mapped onto them")
        ->check(asPhases());
    trace
        .add_option("--phases-file", line.phasesFile,
            "What if: the same phases timed many times (one F,B,O per line, ms; say one per block of steps): the "
            "replay runs at up to 20 of them and averages, as a loop whose host speed moves pays; --phases-ms, where "
            "not given, is their median")
        ->check(readableFile());
    trace
        .add_option_function<double>(
            "--sync-us", [&options](const double& us) { options.syncUs = us; },
            "What if: what one read-back (.item()) costs once the step's GPU work is done (us; default 30, a Python "
            "loss.item() on the H200)")
        ->check(within(whatIfSyncUs));
}

} // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& options)
{
    auto* run = app.add_subcommand("run", "Run an experiment (a YAML file or a preset name) and print the table");
    run->add_option("config", options.config, "Config file or preset; default: seed with CUDA, cpu-seed without");
    const std::string devices = "auto, cpu, cuda or cuda:N";
    run->add_option("--device", options.device, devices + " (overrides the config)")->check(notEmpty(devices));
    run->add_option("--out", options.outDir, "Output directory (default: results/<name>-<time>)")
        ->check(notEmpty("a folder"));
    run->add_flag("--quick", options.quick, "Shrink every cell to a few steps of a tiny batch (smoke test)");
    run->add_option("--processes", options.processes,
           "Spread the run over N fresh processes; intervals then cover how processes differ (overrides the config)")
        ->check(within(configkeys::processes));
    run->add_option("--ranks", options.ranks,
           "Data-parallel over N rank processes (overrides the config's distributed.ranks; adds distributed: with "
           "backend gloo when the config has none)")
        ->check(within(distributedkeys::ranks));
    // How synctax-run tells each rank process it starts who it is; not for people.
    run->add_option("--rank", options.rank)->group("")->check(CLI::Range(0, 63));
    run->add_option("--rendezvous", options.rendezvous)->group("");
    run->add_flag(
        "--force", options.force, "Write into an --out that holds an earlier run's results, overwriting them");
    run->add_option("--trace", options.tracePath, "Also write the steps as a Chrome trace (JSON) for ui.perfetto.dev")
        ->check(notEmpty("a file"));
    run->add_option("--kineto", options.kinetoDir,
           "Keep each model and mode's profiled capture (CUDA builds) as a Kineto trace in this directory")
        ->check(notEmpty("a folder"));
    run->add_option_function<uint64_t>(
           "--seed", [&options](const uint64_t& seed) { options.seed = seed; },
           "Seed for data, weights and the order of blocks")
        ->check(asConfigReadsASeed());
    return run;
}

CLI::App* addValidateCommand(CLI::App& app, ValidateOptions& options)
{
    auto* validate = app.add_subcommand("validate", "Check a config file or preset; print every error found");
    validate->add_option("config", options.config, "Config file or preset")->required();
    return validate;
}

CLI::App* addPresetsCommand(CLI::App& app) { return app.add_subcommand("presets", "List the built-in presets"); }

CLI::App* addPrintConfigCommand(CLI::App& app, PrintConfigOptions& options)
{
    auto* print = app.add_subcommand(
        "print-config", "Print a preset's or a built-in simulation's YAML (a starting point for your own)");
    print->add_option("preset", options.name, "Preset name, or built-in simulation (teach-regimes)")->required();
    return print;
}

CLI::App* addDiffCommand(CLI::App& app, DiffOptions& options)
{
    auto* diff = app.add_subcommand("diff", "Compare two results files cell by cell, with their intervals");
    diff->add_option("a", options.a, "results.json (or .json.gz) of run A, or its folder")->required();
    diff->add_option("b", options.b, "results.json (or .json.gz) of run B, or its folder")->required();
    return diff;
}

CLI::App* addShowCommand(CLI::App& app, ShowOptions& options)
{
    auto* show = app.add_subcommand("show",
        "Print a run's table from its results.json, or from its folder: a run killed before it wrote results.json "
        "is rebuilt from its journal.jsonl");
    show->add_option("results", options.results, "results.json (or .json.gz), a run's folder, or its journal.jsonl")
        ->required();
    return show;
}

CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options)
{
    auto* simulate = app.add_subcommand("simulate", "Simulate a loop's queue and each style's tax; no GPU needed");
    simulate
        ->add_option("config", options.config,
            "Simulation file or built-in simulation (teach-regimes); a results.json (or .json.gz): its cells predicted "
            "again")
        ->required();
    simulate->add_option("--out", options.outDir, "Also write steps.csv and simulation.csv into this directory")
        ->check(notEmpty("a folder"));
    return simulate;
}

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& options)
{
    auto* sweep = app.add_subcommand("sweep", "Simulated tax of loss.item() over G/(D+H) and H, as CSV");
    sweep->add_option("--out", options.outPath, "CSV file (default: stdout)")->check(notEmpty("a file"));
    sweep->add_option("--d-ms", options.dMs, "Host dispatch time per step, ms")
        ->capture_default_str()
        ->check(within(simulationBounds::dMs));
    sweep->add_option("--l-us", options.lUs, "Sync round trip, us")
        ->capture_default_str()
        ->check(within(simulationBounds::lUs));
    sweep->add_option("--k", options.k, "Launches per step")->capture_default_str()->check(within(simulationBounds::k));
    sweep->add_option("--steps-per-block", options.stepsPerBlock, "Steps per block")
        ->capture_default_str()
        ->check(within(simulationBounds::stepsPerBlock));
    return sweep;
}

CLI::App* addTraceCommand(CLI::App& app, TraceCommandLine& line)
{
    TraceOptions& options = line.options;
    auto* trace = app.add_subcommand(
        "trace", "Read PyTorch-profiler (Kineto) traces: per step and per sync site, what the syncs cost");
    trace->add_option("files", options.files, "Trace files (.json or .json.gz); several: the ranks of one job");
    trace
        ->add_option("--out", options.outDir,
            "Write trace-summary.json here (several files: trace-summary-<file stem>.json each; files sharing a stem "
            "are told apart by their folders' names, trace-summary-<folder>-<file stem>.json)")
        ->check(notEmpty("a folder"));
    trace
        ->add_option("--watch", options.watchDir,
            "Follow a folder that tensorboard_trace_handler writes into and print each trace as it lands; Ctrl-C "
            "stops")
        ->check(notEmpty("a folder"));
    trace->add_flag("--once", options.once, "With --watch: read the traces there now, then stop");
    trace->add_option("--timeout", options.timeoutS, "With --watch: stop after this many seconds")
        ->check(within(watchTimeoutS));
    addWhatIfOptions(*trace, line);
    return trace;
}

std::optional<TraceOptions> finishTraceOptions(const CLI::App& trace, const TraceCommandLine& line)
{
    // Where host work goes means nothing without host work: said, rather than read as none.
    if (trace.count("--host-work-at") > 0 && trace.count("--host-work-us") == 0) {
        std::cerr << "synctax-run trace: --host-work-at: only with --host-work-us (it says where that host work "
                     "goes)\n";
        return std::nullopt;
    }
    TraceOptions options = line.options;
    if (!line.phasesFile.empty()) {
        const PhasesFileRead read = loadPhasesFile(line.phasesFile);
        if (!read.errors.empty()) {
            std::cerr << formatErrors(read.errors);
            return std::nullopt;
        }
        options.phasesSpreadMs = read.rows;
    }
    return options;
}

} // namespace synctax
