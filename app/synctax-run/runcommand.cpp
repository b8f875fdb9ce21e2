#include "runcommand.h"

#include "inputcommands.h"
#include "processcommand.h"
#include "progressprinter.h"
#include "rankcommand.h"
#include "runresult.h"

#include "core/config/configloader.h"
#include "core/config/configwriter.h"
#include "core/config/presets.h"
#include "core/engine/run/devices.h"
#include "core/engine/run/experimentrunner.h"
#include "core/engine/run/launchcapture.h"
#include "core/engine/run/modelcheck.h"
#include "core/results/folderclaim.h"
#include "core/results/journal.h"
#include "core/results/resultsjson.h"
#include "core/results/runoutputs.h"
#include "core/results/stepcsvwriter.h"
#include "core/steps/stepring.h"
#include "core/text/format.h"
#ifdef SYNCTAX_HAVE_C10D
#include "core/engine/distributed/rankrun.h"
#endif

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

namespace synctax {

namespace {

std::atomic<bool> g_stopRequested { false };

extern "C" void requestStop(int) { g_stopRequested.store(true); }

// A rank stops, as on SIGTERM, when its launcher dies without passing a stop on (killed, crashed):
// else the ranks, in step with each other, would run their whole budget with nobody to collect it.
void stopWithLauncher()
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) // the launcher was gone before the line above
        g_stopRequested.store(true);
#endif
}

// Why this build cannot run config's distributed: (empty when it can, or there is none).
std::string whyNoRanks(const ExperimentConfig& config)
{
    if (!config.distributed)
        return "";
#ifndef SYNCTAX_HAVE_C10D
    return "distributed: this build has no c10d process groups (LibTorch's Gloo headers, libgloo-dev on Debian, "
           "were not found when it was configured)";
#endif
#ifndef SYNCTAX_HAVE_NCCL
    if (config.distributed->backend == CollectiveBackend::Nccl)
        return "distributed: backend nccl: this build has no NCCL (LibTorch without CUDA, or ProcessGroupNCCL.hpp or "
               "nccl.h not found when it was configured); use backend gloo";
#endif
    return "";
}

// Why --kineto would keep nothing (empty when it keeps the captures): the capture needs CUDA and Kineto.
std::string whyNoKineto(const std::string& kinetoDir, const std::string& device)
{
    if (kinetoDir.empty())
        return "";
    if (!launchCaptureAvailable())
        return "--kineto: this build cannot capture a step with the PyTorch profiler (it needs CUDA and LibTorch 2 "
               "or newer), so nothing would be kept";
    try {
        if (resolveDevice(device) == "cpu")
            return "--kineto: device cpu: the profiled capture is CUDA only, so nothing would be kept";
    } catch (const DeviceError&) {
        return ""; // said when the runner starts
    }
    return "";
}

// A preset sized for a GPU, run on the CPU: its steps take seconds, its budgets end it early.
bool gpuPresetOnCpu(const std::string& source, const std::string& device)
{
    std::error_code ec;
    if (std::filesystem::exists(source, ec) || presetSizedFor(source) != PresetSize::Gpu)
        return false;
    try {
        return resolveDevice(device) == "cpu";
    } catch (const DeviceError&) {
        return false; // said when the runner starts
    }
}

// The config as the command line changes it.
void applyOptions(ExperimentConfig& config, const RunOptions& options)
{
    if (options.quick)
        applyQuick(config);
    if (options.seed)
        config.seed = *options.seed;
    if (!options.device.empty())
        config.device = options.device;
    if (options.processes)
        config.processes = *options.processes;
    if (options.ranks) {
        if (!config.distributed)
            config.distributed = DistributedSpec {};
        config.distributed->ranks = *options.ranks;
    }
}

// The config to run, the options applied, checked as a whole and against this build; or nothing,
// the reasons said on stderr.
std::optional<ExperimentConfig> checkConfig(const RunOptions& options)
{
    std::string source = options.config;
    if (source.empty()) {
        source = defaultPresetName(cudaAvailable());
        std::cerr << "synctax-run: no config given; running the '" << source << "' preset ("
                  << (cudaAvailable() ? "CUDA is available" : "no CUDA device: CPU only") << ")\n";
    }
    auto config = loadOrReport(source);
    if (!config)
        return std::nullopt;
    applyOptions(*config, options);
    // The options may contradict the config (--device cpu with cuda_graph): check the result as a whole.
    if (const ConfigLoadResult checked = loadConfigText(toJson(*config).dump(1), source); !checked.config) {
        for (const auto& e : checked.errors)
            std::cerr << source << " with the command-line options: " << e.message << "\n";
        std::cerr << "nothing was run\n";
        return std::nullopt;
    }
    // A rank's launcher checked the same files before it started the ranks.
    if (const auto errors = options.rank < 0 ? checkModelFiles(*config) : std::vector<ConfigError> {};
        !errors.empty()) {
        std::cerr << formatErrors(errors) << errors.size() << " error(s) in the torchscript models; nothing was run\n";
        return std::nullopt;
    }
    if (gpuPresetOnCpu(source, config->device))
        std::cerr << "synctax-run: warning: preset '" << source << "' is sized for a GPU: on the CPU a step takes "
                  << "far longer and its time budgets may end it with few measured rounds or none; on the CPU run "
                  << defaultPresetName(false) << " instead\n";

    if (const std::string why = whyNoRanks(*config); !why.empty()) {
        std::cerr << "synctax-run: " << why << "; nothing was run\n";
        return std::nullopt;
    }
    if (const std::string why = whyNoKineto(options.kinetoDir, config->device); !why.empty()) {
        std::cerr << "synctax-run: " << why << "; nothing was run\n";
        return std::nullopt;
    }
    return config;
}

// The output folder, claimed for this run: its lock is held while this lives.
struct ClaimedFolder {
    std::filesystem::path dir;
    bool existed = false; // else made here, and removed again should the run not start
    FolderClaim claim;
};

// The folder left as it was found: the lock's file goes, and so does a folder made here (if empty).
void giveBack(ClaimedFolder& folder)
{
    folder.claim.lock.reset();
    std::error_code ec;
    if (!folder.existed)
        std::filesystem::remove(folder.dir, ec);
}

// The output folder made and held for every output this run writes there; or nothing, the reason
// said on stderr.
std::optional<ClaimedFolder> claimFolder(const ExperimentConfig& config, const RunOptions& options)
{
    ClaimedFolder folder;
    folder.dir = options.outDir.empty()
        ? std::filesystem::path("results") / runFolderName(config.name, std::chrono::system_clock::now())
        : std::filesystem::path(options.outDir);
    std::error_code ec;
    folder.existed = std::filesystem::exists(folder.dir, ec);
    std::filesystem::create_directories(folder.dir, ec);
    if (ec) {
        std::cerr << folder.dir.string() << ": cannot create the output directory: " << ec.message() << "\n";
        return std::nullopt;
    }

    std::vector<std::string> outputs;
    for (const char* name : { resultsFileName, summaryFileName })
        outputs.push_back((folder.dir / name).string());
    // Spread over processes, each writes its steps, journal and trace into its own process-K/.
    if (config.processes <= 1) {
        for (const char* name : { stepsFileName, journalFileName })
            outputs.push_back((folder.dir / name).string());
        if (!options.tracePath.empty())
            outputs.push_back(options.tracePath);
    }
    folder.claim = claimOutputFolder(folder.dir.string(), outputs, options.force);
    if (!folder.claim.lock) {
        std::cerr << "synctax-run: " << folder.claim.why
                  << (folder.claim.refusal == FolderClaim::Refusal::EarlierResults
                             ? "; choose another --out, or add --force to overwrite them"
                             : "")
                  << "; nothing was run\n";
        giveBack(folder); // only if empty: made here, for nothing
        return std::nullopt;
    }
    return folder;
}

// The experiment of this process; in a rank of a data-parallel run, with the group it joined,
// which the runner's lockstep uses as long as it runs.
struct Runner {
#ifdef SYNCTAX_HAVE_C10D
    std::optional<RankRun> rank;
#endif
    std::unique_ptr<ExperimentRunner> experiment;
};

// The runner made, its steps into `ring`; false, the reason said on stderr, when it cannot start
// (no such device, the ranks not met).
bool startRunner(ExperimentConfig& config, const RunOptions& options, StepRing& ring, Runner& runner)
{
    try {
#ifdef SYNCTAX_HAVE_C10D
        if (config.distributed && options.rank >= 0) {
            runner.rank = joinRun(config, options.rank, options.rendezvous);
            config.device = runner.rank->device;
        }
#endif
        runner.experiment = std::make_unique<ExperimentRunner>(config, &ring);
        runner.experiment->kinetoDir = options.kinetoDir;
#ifdef SYNCTAX_HAVE_C10D
        if (runner.rank)
            runner.experiment->lockstep = runner.rank->lockstep;
#endif
        return true;
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return false;
    }
}

// Where a run's records go while it measures.
struct Recorders {
    StepRing ring; // the runner's steps, drained into csv
    std::unique_ptr<StepCsvWriter> csv; // steps.csv
    std::unique_ptr<Journal> journal; // journal.jsonl: each block, group and note as it comes
    std::vector<StepRecord> traceRecords; // kept for the trace only: a million steps take 50 MB here
};

// steps.csv and journal.jsonl opened; false, the reason said on stderr, when one cannot be.
bool openRecorders(Recorders& recorders, const ExperimentConfig& config, const ExperimentRunner& runner,
    const std::filesystem::path& outDir)
{
    try {
        recorders.csv = std::make_unique<StepCsvWriter>((outDir / stepsFileName).string(), runner.cells(),
            config.distributed ? StepCsvColumns::WithCollectiveWait : StepCsvColumns::Plain);
        recorders.journal = std::make_unique<Journal>(
            (outDir / journalFileName).string(), config, describeEnvironment(runner.device()), runner.cells());
        return true;
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return false;
    }
}

// The ring drained into steps.csv every 20 ms until `finished`, then once more; the records kept
// in `kept` too where given.
std::thread drainSteps(
    StepRing& ring, StepCsvWriter& csv, std::vector<StepRecord>* kept, const std::atomic<bool>& finished)
{
    return std::thread([&ring, &csv, kept, &finished] {
        std::vector<StepRecord> batch;
        for (;;) {
            const bool last = finished.load();
            batch.clear();
            ring.drain(batch);
            csv.write(batch);
            if (kept)
                kept->insert(kept->end(), batch.begin(), batch.end());
            if (last)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        csv.flush();
    });
}

// The experiment measured until its end or a stop (SIGINT, SIGTERM; a rank's also when its
// launcher dies), its progress on stderr and its records where `recorders` keep them.
ExperimentResult measure(
    ExperimentRunner& runner, Recorders& recorders, const ExperimentConfig& config, const RunOptions& options)
{
    Journal& journal = *recorders.journal;
    runner.onBlockMeasured = [&](const CellPlan& cell, int round, int64_t steps, double msPerStep) {
        journal.block(cell, round, steps, msPerStep);
    };
    runner.onGroupFinished
        = [&](const GroupResult& group, const std::vector<CellResult>& cells) { journal.group(group, cells); };
    std::atomic<bool> runFinished { false };
    std::thread drainer = drainSteps(
        recorders.ring, *recorders.csv, options.tracePath.empty() ? nullptr : &recorders.traceRecords, runFinished);

    ProgressPrinter progress(stderr);
    runner.onProgress = [&](const RunProgress& p) { progress.update(p); };
    runner.onNote = [&journal](const std::string& note) {
        std::cerr << "note: " << note << "\n";
        journal.note(note);
    };
    g_stopRequested.store(false);
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    if (config.distributed && options.rank >= 0)
        stopWithLauncher();
    ExperimentResult result = runner.run(g_stopRequested);
    if (config.distributed)
        result.distributed = DistributedResult { options.rank, {}, {} };
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    progress.finish();
    journal.end(result.stopped);
    runFinished.store(true);
    drainer.join();
    return result;
}

// The table, then results.json, summary.csv and the trace beside steps.csv and journal.jsonl; the
// run's exit code.
int writeResults(const ExperimentConfig& config, const RunOptions& options, const std::filesystem::path& outDir,
    const ExperimentResult& result, const Recorders& recorders, const std::vector<CellPlan>& cells)
{
    // The table first: should a file fail now (a full disk), what was measured is still shown.
    printRunTable(config.name, result);
    try {
        writeRunOutputs(outDir.string(), { result, &recorders.traceRecords, &cells, false, options.tracePath });
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "wrote " << (outDir / "results.json").string() << ", steps.csv (" << recorders.csv->rows()
              << " steps), summary.csv, journal.jsonl\n";
    if (!options.tracePath.empty())
        std::cerr << "wrote " << options.tracePath << " (open it in ui.perfetto.dev)\n";
    if (result.droppedRecords > 0)
        std::cerr << "note: " << result.droppedRecords << " step records were dropped (the writer fell behind)\n";
    if (result.stopped)
        std::cerr << "synctax-run: interrupted; the blocks measured so far are saved\n";
    return runExitCode(result);
}

// The experiment run in this process, as one process or as a rank of a data-parallel run.
int runHere(ExperimentConfig& config, const RunOptions& options, ClaimedFolder& folder)
{
    Recorders recorders;
    Runner runner;
    if (!startRunner(config, options, recorders.ring, runner)) {
        giveBack(folder);
        return 2;
    }
    ExperimentRunner& experiment = *runner.experiment;
    std::cerr << "synctax-run: " << config.name << " on " << experiment.device() << ", " << experiment.cells().size()
              << " cells; results in " << folder.dir.string() << "\n";
    if (!openRecorders(recorders, config, experiment, folder.dir))
        return 2;
    const ExperimentResult result = measure(experiment, recorders, config, options);
    return writeResults(config, options, folder.dir, result, recorders, experiment.cells());
}

} // namespace

int runCommand(const RunOptions& options)
{
    std::optional<ExperimentConfig> config = checkConfig(options);
    if (!config)
        return 2;
    std::optional<ClaimedFolder> folder = claimFolder(*config, options);
    if (!folder)
        return 2;
    if (config->processes > 1)
        return runInProcesses(*config, folder->dir, options);
    if (config->distributed && options.rank < 0)
        return runRanks(*config, folder->dir, options);
    return runHere(*config, options, *folder);
}

} // namespace synctax
