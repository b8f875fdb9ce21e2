#include "runcommand.h"

#include "childprocess.h"
#include "inputcommands.h"

#include "progressprinter.h"
#include "rankcommand.h"
#include "terminal.h"

#include "core/analysis/processmerge.h"
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
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"
#include "core/results/runoutputs.h"
#include "core/results/stepcsvwriter.h"
#include "core/results/sweeptable.h"
#include "core/steps/stepring.h"
#include "core/text/format.h"
#ifdef SYNCTAX_HAVE_C10D
#include "core/engine/distributed/rankrun.h"
#endif

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
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

void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write '" + path.string() + "'");
}

// The table on stdout under one line naming the run; `more` ends that line.
void printTable(const std::string& name, const ExperimentResult& result, const std::string& more = "")
{
    std::cout << "\n"
              << name << " on " << result.environment.device << " (" << result.environment.deviceName << "), torch "
              << result.environment.torchVersion << ", " << formatDuration(result.durationS) << more << "\n";
    std::cout << formatTable(result, terminalColumns(stdout)) << formatSweepTables(result) << std::flush;
    if (anyTooNoisy(result))
        std::cerr << "synctax-run: too noisy to tell styles apart; no overhead in the table is a finding (its last "
                     "lines say why)\n";
}

int exitCodeFor(const ExperimentResult& result)
{
    if (result.stopped)
        return 130;
    for (const auto& cell : result.cells) {
        if (!cell.ok)
            return 1;
    }
    return 0;
}

// Runs this program again as `synctax-run run CONFIG --out DIR`, its table into DIR/table.txt and
// its progress to this stderr; forwards a stop request (SIGINT, SIGTERM) to it. Returns its exit
// code, or -1 when it could not be started.
int runChild(const std::filesystem::path& config, const std::filesystem::path& dir, const std::string& tracePath,
    const std::string& kinetoDir)
{
    // --force: this process checked DIR before making it, and holds the lock of the folder above.
    std::vector<std::string> args { "synctax-run", "run", config.string(), "--out", dir.string(), "--force" };
    if (!tracePath.empty()) {
        args.push_back("--trace");
        args.push_back(tracePath);
    }
    if (!kinetoDir.empty()) {
        args.push_back("--kineto");
        args.push_back(kinetoDir);
    }
    const pid_t pid = spawnSelf(args, (dir / "table.txt").string());
    if (pid < 0)
        return -1;
    bool forwarded = false;
    for (;;) {
        int status = 0;
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (done < 0 && errno != EINTR)
            return -1;
        // A Ctrl+C reaches the child through the terminal too; a signal sent to this process alone
        // is passed on, once.
        if (g_stopRequested.load() && !forwarded) {
            kill(pid, SIGINT);
            forwarded = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

// The run spread over config.processes fresh processes, one after another (docs/method.md): each
// writes its own outputs into DIR/process-K/; the merged results.json and summary.csv go to DIR.
int runInProcesses(const ExperimentConfig& config, const std::filesystem::path& outDir, const RunOptions& options)
{
    const int count = config.processes;
    std::cerr << "synctax-run: " << config.name << " spread over " << count << " processes; results in "
              << outDir.string() << "\n";
    const auto start = std::chrono::steady_clock::now();
    g_stopRequested.store(false);
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    std::vector<ExperimentResult> parts;
    for (int i = 0; i < count && !g_stopRequested.load(); ++i) {
        const std::filesystem::path dir = outDir / ("process-" + std::to_string(i + 1));
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        const std::filesystem::path childConfig = dir / "config.yaml";
        try {
            writeText(childConfig, toYaml(configForProcess(config, i, count)));
        } catch (const std::exception& e) {
            std::cerr << "synctax-run: " << e.what() << "\n";
            return 2;
        }
        std::cerr << "process " << i + 1 << " of " << count << "\n";
        const std::string trace = options.tracePath.empty() ? std::string() : (dir / "trace.json").string();
        const std::string kineto = options.kinetoDir.empty() ? std::string() : (dir / "kineto").string();
        const int rc = runChild(childConfig, dir, trace, kineto);
        if (rc == 2 || rc < 0) {
            std::cerr << "synctax-run: process " << i + 1 << " could not run (exit " << rc << "); see above\n";
            return 2;
        }
        const ResultsLoadResult loaded = loadResultsFile((dir / "results.json").string());
        if (!loaded.result) {
            std::cerr << formatErrors(loaded.errors);
            return 1;
        }
        parts.push_back(*loaded.result);
        if (rc == 130)
            break;
    }
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (parts.empty()) {
        std::cerr << "synctax-run: interrupted before any process finished\n";
        return 130;
    }
    ExperimentResult result = mergeProcessResults(config, parts);
    result.durationS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.stopped = result.stopped || g_stopRequested.load() || int(parts.size()) < count;
    printTable(config.name, result, ", " + std::to_string(parts.size()) + " processes");
    try {
        writeRunOutputs(outDir.string(), { result });
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "wrote " << (outDir / "results.json").string() << " and summary.csv (all processes); steps.csv, "
              << "journal.jsonl" << (options.tracePath.empty() ? "" : ", trace.json") << " and table.txt of each in "
              << (outDir / "process-N").string() << "\n";
    if (result.stopped)
        std::cerr << "synctax-run: interrupted; the blocks measured so far are saved\n";
    // A process's own exit code (a failed cell, an interruption) shows in the merged result too.
    return exitCodeFor(result);
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

} // namespace

int runCommand(const RunOptions& options)
{
    std::string source = options.config;
    if (source.empty()) {
        source = defaultPresetName(cudaAvailable());
        std::cerr << "synctax-run: no config given; running the '" << source << "' preset ("
                  << (cudaAvailable() ? "CUDA is available" : "no CUDA device: CPU only") << ")\n";
    }
    auto config = loadOrReport(source);
    if (!config)
        return 2;
    if (options.quick)
        applyQuick(*config);
    if (options.seed)
        config->seed = *options.seed;
    if (!options.device.empty())
        config->device = options.device;
    if (options.processes)
        config->processes = *options.processes;
    if (options.ranks) {
        if (!config->distributed)
            config->distributed = DistributedSpec {};
        config->distributed->ranks = *options.ranks;
    }
    // The options may contradict the config (--device cpu with cuda_graph): check the result as a whole.
    if (const ConfigLoadResult checked = loadConfigText(toJson(*config).dump(1), source); !checked.config) {
        for (const auto& e : checked.errors)
            std::cerr << source << " with the command-line options: " << e.message << "\n";
        std::cerr << "nothing was run\n";
        return 2;
    }
    // A rank's launcher checked the same files before it started the ranks.
    if (const auto errors = options.rank < 0 ? checkModelFiles(*config) : std::vector<ConfigError> {};
        !errors.empty()) {
        std::cerr << formatErrors(errors) << errors.size() << " error(s) in the torchscript models; nothing was run\n";
        return 2;
    }
    if (gpuPresetOnCpu(source, config->device))
        std::cerr << "synctax-run: warning: preset '" << source << "' is sized for a GPU: on the CPU a step takes "
                  << "far longer and its time budgets may end it with few measured rounds or none; on the CPU run "
                  << defaultPresetName(false) << " instead\n";

    if (const std::string why = whyNoRanks(*config); !why.empty()) {
        std::cerr << "synctax-run: " << why << "; nothing was run\n";
        return 2;
    }
    if (const std::string why = whyNoKineto(options.kinetoDir, config->device); !why.empty()) {
        std::cerr << "synctax-run: " << why << "; nothing was run\n";
        return 2;
    }

    const std::filesystem::path outDir = options.outDir.empty()
        ? std::filesystem::path("results") / runFolderName(config->name, std::chrono::system_clock::now())
        : std::filesystem::path(options.outDir);
    std::error_code ec;
    const bool outDirExisted = std::filesystem::exists(outDir, ec);
    std::filesystem::create_directories(outDir, ec);
    if (ec) {
        std::cerr << outDir.string() << ": cannot create the output directory: " << ec.message() << "\n";
        return 2;
    }

    std::vector<std::string> outputs;
    for (const char* name : { resultsFileName, summaryFileName })
        outputs.push_back((outDir / name).string());
    // Spread over processes, each writes its steps, journal and trace into its own process-K/.
    if (config->processes <= 1) {
        for (const char* name : { stepsFileName, journalFileName })
            outputs.push_back((outDir / name).string());
        if (!options.tracePath.empty())
            outputs.push_back(options.tracePath);
    }
    FolderClaim claim = claimOutputFolder(outDir.string(), outputs, options.force);
    if (!claim.lock) {
        std::cerr << "synctax-run: " << claim.why
                  << (claim.refusal == FolderClaim::Refusal::EarlierResults
                             ? "; choose another --out, or add --force to overwrite them"
                             : "")
                  << "; nothing was run\n";
        if (!outDirExisted)
            std::filesystem::remove(outDir, ec); // only if empty: made here, for nothing
        return 2;
    }

    if (config->processes > 1)
        return runInProcesses(*config, outDir, options);
    if (config->distributed && options.rank < 0)
        return runRanks(*config, outDir, options);

    StepRing ring;
    std::unique_ptr<ExperimentRunner> runner;
#ifdef SYNCTAX_HAVE_C10D
    std::optional<RankRun> rank; // a rank of a data-parallel run: the group it joined
#endif
    try {
#ifdef SYNCTAX_HAVE_C10D
        if (config->distributed && options.rank >= 0) {
            rank = joinRun(*config, options.rank, options.rendezvous);
            config->device = rank->device;
        }
#endif
        runner = std::make_unique<ExperimentRunner>(*config, &ring);
        runner->kinetoDir = options.kinetoDir;
#ifdef SYNCTAX_HAVE_C10D
        if (rank)
            runner->lockstep = rank->lockstep;
#endif
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        claim.lock.reset(); // its file goes, so that a folder made here is empty again
        if (!outDirExisted)
            std::filesystem::remove(outDir, ec);
        return 2;
    }
    std::cerr << "synctax-run: " << config->name << " on " << runner->device() << ", " << runner->cells().size()
              << " cells; results in " << outDir.string() << "\n";

    std::unique_ptr<StepCsvWriter> csvWriter;
    std::unique_ptr<Journal> journalWriter;
    try {
        csvWriter = std::make_unique<StepCsvWriter>((outDir / stepsFileName).string(), runner->cells(),
            config->distributed ? StepCsvColumns::WithCollectiveWait : StepCsvColumns::Plain);
        journalWriter = std::make_unique<Journal>(
            (outDir / journalFileName).string(), *config, describeEnvironment(runner->device()), runner->cells());
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 2;
    }
    StepCsvWriter& csv = *csvWriter;
    Journal& journal = *journalWriter;
    runner->onBlockMeasured = [&](const CellPlan& cell, int round, int64_t steps, double msPerStep) {
        journal.block(cell, round, steps, msPerStep);
    };
    runner->onGroupFinished
        = [&](const GroupResult& group, const std::vector<CellResult>& cells) { journal.group(group, cells); };
    std::atomic<bool> runFinished { false };
    // Kept for the trace only: a million steps take 50 MB here.
    std::vector<StepRecord> traceRecords;
    std::thread drainer([&] {
        std::vector<StepRecord> batch;
        for (;;) {
            const bool last = runFinished.load();
            batch.clear();
            ring.drain(batch);
            csv.write(batch);
            if (!options.tracePath.empty())
                traceRecords.insert(traceRecords.end(), batch.begin(), batch.end());
            if (last)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        csv.flush();
    });

    ProgressPrinter progress(stderr);
    runner->onProgress = [&](const RunProgress& p) { progress.update(p); };
    runner->onNote = [&journal](const std::string& note) {
        std::cerr << "note: " << note << "\n";
        journal.note(note);
    };
    g_stopRequested.store(false);
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    if (config->distributed && options.rank >= 0)
        stopWithLauncher();
    ExperimentResult result = runner->run(g_stopRequested);
    if (config->distributed)
        result.distributed = DistributedResult { options.rank, {}, {} };
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    progress.finish();
    journal.end(result.stopped);
    runFinished.store(true);
    drainer.join();

    // The table first: should a file fail now (a full disk), what was measured is still shown.
    printTable(config->name, result);
    try {
        writeRunOutputs(outDir.string(), { result, &traceRecords, &runner->cells(), false, options.tracePath });
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "wrote " << (outDir / "results.json").string() << ", steps.csv (" << csv.rows()
              << " steps), summary.csv, journal.jsonl\n";
    if (!options.tracePath.empty())
        std::cerr << "wrote " << options.tracePath << " (open it in ui.perfetto.dev)\n";
    if (result.droppedRecords > 0)
        std::cerr << "note: " << result.droppedRecords << " step records were dropped (the writer fell behind)\n";
    if (result.stopped)
        std::cerr << "synctax-run: interrupted; the blocks measured so far are saved\n";
    return exitCodeFor(result);
}

} // namespace synctax
