#include "processcommand.h"

#include "childprocess.h"
#include "runresult.h"

#include "core/analysis/processmerge.h"
#include "core/config/configwriter.h"
#include "core/results/resultsloader.h"
#include "core/results/runoutputs.h"
#include "core/text/format.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <thread>

namespace synctax {

namespace {

std::atomic<bool> g_processStop { false };

extern "C" void requestProcessStop(int) { g_processStop.store(true); }

void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write '" + path.string() + "'");
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
        if (g_processStop.load() && !forwarded) {
            kill(pid, SIGINT);
            forwarded = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

// The processes' results merged into one, shown and written into DIR; the run's exit code.
int writeMerged(const ExperimentConfig& config, const std::filesystem::path& outDir, const RunOptions& options,
    const std::vector<ExperimentResult>& parts, std::chrono::steady_clock::time_point start)
{
    ExperimentResult result = mergeProcessResults(config, parts);
    result.durationS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.stopped = result.stopped || g_processStop.load() || int(parts.size()) < config.processes;
    printRunTable(config.name, result, ", " + std::to_string(parts.size()) + " processes");
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
    return runExitCode(result);
}

} // namespace

int runInProcesses(const ExperimentConfig& config, const std::filesystem::path& outDir, const RunOptions& options)
{
    const int count = config.processes;
    std::cerr << "synctax-run: " << config.name << " spread over " << count << " processes; results in "
              << outDir.string() << "\n";
    const auto start = std::chrono::steady_clock::now();
    g_processStop.store(false);
    std::signal(SIGINT, requestProcessStop);
    std::signal(SIGTERM, requestProcessStop);
    std::vector<ExperimentResult> parts;
    for (int i = 0; i < count && !g_processStop.load(); ++i) {
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
    return writeMerged(config, outDir, options, parts, start);
}

} // namespace synctax
