#include "inputcommands.h"
#include "runcommand.h"
#include "simulatecommand.h"
#include "tracecommand.h"

#include "core/config/configschema.h"
#include "core/config/unsignedtext.h"
#include "core/queuemodel/simulationbounds.h"
#include "core/trace/tracewhatif.h"
#ifdef SYNCTAX_RUN_ENGINE
#include "core/engine/run/modelcheck.h"
#endif

#include "synctax_version.h"

#include <CLI/CLI.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

namespace {

// An option held to the bound that a simulation file holds the same quantity to, refused in the
// same words ("--d-ms: -1 is out of range; expected 0 to 1e+06").
template <typename Bound> CLI::Validator within(const Bound& bound)
{
    std::ostringstream range;
    range << "in [" << bound.min << ", " << bound.max << "]";
    return CLI::Validator([bound](std::string& text) { return synctax::outOfBound(bound, text); }, range.str());
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
    return CLI::Validator([](std::string& text) { return synctax::readPhasesMs(text).problem; }, "F,B,O");
}

// --seed read as a config reads `seed:` (CLI11 alone wraps -1 around to 2^64 - 1), then handed on
// in decimal, which CLI11 reads back to the same value.
CLI::Validator asConfigReadsASeed()
{
    return CLI::Validator(
        [](std::string& text) {
            const synctax::UnsignedRead read = synctax::readUnsigned(text);
            if (read.value)
                text = std::to_string(*read.value);
            return read.problem;
        },
        "");
}

// The what-if's step time is positive; a sync costs a second at most. Host work is held to a
// config's host_work_us bounds (configkeys::hostWorkUs), the same quantity.
constexpr synctax::NumberKey whatIfStepMs { "step_ms", 0.001, 1e6 };
constexpr synctax::NumberKey whatIfSyncUs { "sync_us", 0.0, 1e6 };
// A watch stops after this long: finite, so that NaN or infinity cannot mean "for ever" unasked.
constexpr synctax::NumberKey watchTimeoutS { "timeout", 0.001, 1e6 };

} // namespace

static int runMain(int argc, char** argv)
{
    CLI::App app { "synctax-run: measure what per-step logging (loss.item(), progress bars, prints) costs a "
                   "training loop" };
    app.set_version_flag("--version", std::string("synctax-run ") + SYNCTAX_VERSION);
    app.require_subcommand(1);

    synctax::RunOptions run;
    uint64_t seed = 0;
    auto* runCmd = app.add_subcommand("run", "Run an experiment (a YAML file or a preset name) and print the table");
    runCmd->add_option("config", run.config, "Config file or preset; default: seed with CUDA, cpu-seed without");
    const std::string devices = "auto, cpu, cuda or cuda:N";
    runCmd->add_option("--device", run.device, devices + " (overrides the config)")->check(notEmpty(devices));
    runCmd->add_option("--out", run.outDir, "Output directory (default: results/<name>-<time>)")
        ->check(notEmpty("a folder"));
    runCmd->add_flag("--quick", run.quick, "Shrink every cell to a few steps of a tiny batch (smoke test)");
    runCmd
        ->add_option("--processes", run.processes,
            "Spread the run over N fresh processes; intervals then cover how processes differ (overrides the "
            "config)")
        ->check(within(synctax::configkeys::processes));
    runCmd
        ->add_option("--ranks", run.ranks,
            "Data-parallel over N rank processes (overrides the config's distributed.ranks; adds distributed: "
            "with backend gloo when the config has none)")
        ->check(within(synctax::distributedkeys::ranks));
    // How synctax-run tells each rank process it starts who it is; not for people.
    runCmd->add_option("--rank", run.rank)->group("")->check(CLI::Range(0, 63));
    runCmd->add_option("--rendezvous", run.rendezvous)->group("");
    runCmd->add_flag("--force", run.force, "Write into an --out that holds an earlier run's results, overwriting them");
    runCmd->add_option("--trace", run.tracePath, "Also write the steps as a Chrome trace (JSON) for ui.perfetto.dev")
        ->check(notEmpty("a file"));
    runCmd
        ->add_option("--kineto", run.kinetoDir,
            "Keep each model and mode's profiled capture (CUDA builds) as a Kineto trace in this directory")
        ->check(notEmpty("a folder"));
    auto* seedOption = runCmd->add_option("--seed", seed, "Seed for data, weights and the order of blocks")
                           ->check(asConfigReadsASeed());

    std::string config;
    auto* validateCmd = app.add_subcommand("validate", "Check a config file or preset; print every error found");
    validateCmd->add_option("config", config, "Config file or preset")->required();

    auto* presetsCmd = app.add_subcommand("presets", "List the built-in presets");

    std::string preset;
    auto* printCmd = app.add_subcommand(
        "print-config", "Print a preset's or a built-in simulation's YAML (a starting point for your own)");
    printCmd->add_option("preset", preset, "Preset name, or built-in simulation (teach-regimes)")->required();

    std::string diffA, diffB;
    auto* diffCmd = app.add_subcommand("diff", "Compare two results files cell by cell, with their intervals");
    diffCmd->add_option("a", diffA, "results.json (or .json.gz) of run A, or its folder")->required();
    diffCmd->add_option("b", diffB, "results.json (or .json.gz) of run B, or its folder")->required();

    std::string shown;
    auto* showCmd = app.add_subcommand("show",
        "Print a run's table from its results.json, or from its folder: a run killed before it wrote results.json "
        "is rebuilt from its journal.jsonl");
    showCmd->add_option("results", shown, "results.json (or .json.gz), a run's folder, or its journal.jsonl")
        ->required();

    synctax::SimulateOptions simulate;
    auto* simulateCmd = app.add_subcommand("simulate", "Simulate a loop's queue and each style's tax; no GPU needed");
    simulateCmd
        ->add_option("config", simulate.config,
            "Simulation file or built-in simulation (teach-regimes); a results.json (or .json.gz): its cells predicted "
            "again")
        ->required();
    simulateCmd->add_option("--out", simulate.outDir, "Also write steps.csv and simulation.csv into this directory")
        ->check(notEmpty("a folder"));

    synctax::SweepOptions sweep;
    auto* sweepCmd = app.add_subcommand("sweep", "Simulated tax of loss.item() over G/(D+H) and H, as CSV");
    sweepCmd->add_option("--out", sweep.outPath, "CSV file (default: stdout)")->check(notEmpty("a file"));
    sweepCmd->add_option("--d-ms", sweep.dMs, "Host dispatch time per step, ms")
        ->capture_default_str()
        ->check(within(synctax::simulationBounds::dMs));
    sweepCmd->add_option("--l-us", sweep.lUs, "Sync round trip, us")
        ->capture_default_str()
        ->check(within(synctax::simulationBounds::lUs));
    sweepCmd->add_option("--k", sweep.k, "Launches per step")
        ->capture_default_str()
        ->check(within(synctax::simulationBounds::k));
    sweepCmd->add_option("--steps-per-block", sweep.stepsPerBlock, "Steps per block")
        ->capture_default_str()
        ->check(within(synctax::simulationBounds::stepsPerBlock));

    synctax::TraceOptions trace;
    auto* traceCmd = app.add_subcommand(
        "trace", "Read PyTorch-profiler (Kineto) traces: per step and per sync site, what the syncs cost");
    traceCmd->add_option("files", trace.files, "Trace files (.json or .json.gz); several: the ranks of one job");
    traceCmd
        ->add_option("--out", trace.outDir,
            "Write trace-summary.json here (several files: trace-summary-<file stem>.json each; files sharing a stem "
            "are told apart by their folders' names, trace-summary-<folder>-<file stem>.json)")
        ->check(notEmpty("a folder"));
    traceCmd
        ->add_option("--watch", trace.watchDir,
            "Follow a folder that tensorboard_trace_handler writes into and print each trace as it lands; Ctrl-C "
            "stops")
        ->check(notEmpty("a folder"));
    traceCmd->add_flag("--once", trace.once, "With --watch: read the traces there now, then stop");
    traceCmd->add_option("--timeout", trace.timeoutS, "With --watch: stop after this many seconds")
        ->check(within(watchTimeoutS));
    auto* hostWorkUsOption = traceCmd
                                 ->add_option("--host-work-us", trace.hostWorkUs,
                                     "What if: each style with this much more host work per step (us, an integer), "
                                     "e.g. slower data loading")
                                 ->capture_default_str()
                                 ->check(within(synctax::configkeys::hostWorkUs));
    auto* hostWorkAtOption
        = traceCmd
              ->add_option("--host-work-at", trace.hostWorkAt,
                  "Where that host work goes: step-start (data loading) or before-sync (after the step's launches, "
                  "before its read: logging, a checkpoint)")
              ->capture_default_str()
              ->check(CLI::IsMember({ "step-start", "before-sync" }));
    double traceStepMs = 0, traceSyncUs = 0;
    auto* stepMsOption = traceCmd
                             ->add_option("--step-ms", traceStepMs,
                                 "What if: the loop's step time without the profiler (ms); the replay's host is "
                                 "fitted to it")
                             ->check(within(whatIfStepMs));
    std::string tracePhasesMs;
    auto* phasesMsOption = traceCmd
                               ->add_option("--phases-ms", tracePhasesMs,
                                   "What if: the loop's forward (from the step's start), backward and optimizer "
                                   "step without the profiler, each timed from an idle GPU (ms, three numbers: "
                                   "F,B,O); the trace's phases are mapped onto them")
                               ->check(asPhases());
    std::string tracePhasesFile;
    auto* phasesFileOption
        = traceCmd
              ->add_option("--phases-file", tracePhasesFile,
                  "What if: the same phases timed many times (one F,B,O per line, ms; say one per block of "
                  "steps): the replay runs at up to 20 of them and averages, as a loop whose host speed moves pays; "
                  "--phases-ms, where not given, is their median")
              ->check(readableFile());
    auto* syncUsOption = traceCmd
                             ->add_option("--sync-us", traceSyncUs,
                                 "What if: what one read-back (.item()) costs once the step's GPU work is done (us; "
                                 "default 30, a Python loss.item() on the H200)")
                             ->check(within(whatIfSyncUs));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }

    if (*runCmd) {
#ifdef SYNCTAX_RUN_ENGINE
        if (*seedOption)
            run.seed = seed;
        return synctax::runCommand(run);
#else
        return synctax::execEngine(argv); // the arguments were checked here; the engine reads them again
#endif
    }
    if (*validateCmd) {
#ifdef SYNCTAX_RUN_ENGINE
        return synctax::validateCommand(config, synctax::checkModelFiles);
#else
        bool needsEngine = false;
        const int code = synctax::validateCommand(config, nullptr, &needsEngine);
        return needsEngine ? synctax::execEngine(argv) : code; // a torchscript model is loaded by LibTorch
#endif
    }
    if (*presetsCmd)
        return synctax::presetsCommand();
    if (*printCmd) {
        if (synctax::printConfigFindsSimulation(preset))
            return synctax::printSimulationCommand(preset);
        return synctax::printConfigCommand(preset);
    }
    if (*diffCmd)
        return synctax::diffCommand(diffA, diffB);
    if (*showCmd)
        return synctax::showCommand(shown);
    if (*simulateCmd)
        return synctax::simulateCommand(simulate);
    if (*sweepCmd)
        return synctax::sweepCommand(sweep);
    if (*traceCmd) {
        // Where host work goes means nothing without host work: said, rather than read as none.
        if (*hostWorkAtOption && !*hostWorkUsOption) {
            std::cerr << "synctax-run trace: --host-work-at: only with --host-work-us (it says where that host work "
                         "goes)\n";
            return 2;
        }
        if (*stepMsOption)
            trace.stepMs = traceStepMs;
        if (*syncUsOption)
            trace.syncUs = traceSyncUs;
        if (*phasesMsOption)
            trace.phasesMs = synctax::readPhasesMs(tracePhasesMs).ms;
        if (*phasesFileOption) {
            const synctax::PhasesFileRead read = synctax::loadPhasesFile(tracePhasesFile);
            if (!read.errors.empty()) {
                std::cerr << synctax::formatErrors(read.errors);
                return 2;
            }
            trace.phasesSpreadMs = read.rows;
        }
        return synctax::traceCommand(trace);
    }
    return 2;
}

int main(int argc, char** argv)
{
    // A data-parallel run's launcher and its ranks share this stderr: each line leaves in one write,
    // so that their lines never split into each other (std::cerr, unit-buffered, wrote each `<<`).
    // The progress line, redrawn in place on a terminal, is flushed where it is drawn.
    std::setvbuf(stderr, nullptr, _IOLBF, BUFSIZ);
    std::cerr.unsetf(std::ios::unitbuf);
    // Every bad input is reported where it is found; what reaches here is a defect, said in one line.
    try {
        return runMain(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: unexpected error: " << e.what() << "\n";
    } catch (...) {
        std::cerr << "synctax-run: unexpected error\n";
    }
    return 1;
}
