#include "rankcommand.h"

#include "childprocess.h"
#include "terminal.h"

#include "core/analysis/rankprediction.h"
#include "core/config/configwriter.h"
#include "core/results/ranktable.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"
#include "core/results/runoutputs.h"
#include "core/text/format.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

namespace synctax {

namespace {

std::atomic<bool> g_rankStop { false };

extern "C" void requestRankStop(int) { g_rankStop.store(true); }

struct RankProcess {
    int rank = 0;
    pid_t pid = -1;
    bool running = false;
    RankOutcome outcome;
};

// This program again, as `run DIR/config.yaml --out DIR --force` plus `extra`; stdout into
// DIR/table.txt, stderr into DIR/log.txt unless `stderrHere`. Returns the pid, or -1 (said on stderr).
pid_t spawnRun(const std::filesystem::path& dir, const std::vector<std::string>& extra, bool stderrHere = false)
{
    std::vector<std::string> args { "synctax-run", "run", (dir / "config.yaml").string(), "--out", dir.string(),
        "--force" };
    args.insert(args.end(), extra.begin(), extra.end());
    return spawnSelf(args, (dir / "table.txt").string(), stderrHere ? "" : (dir / "log.txt").string());
}

int waitFor(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string describeEnd(int status)
{
    if (WIFSIGNALED(status))
        return std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status))
            + ")";
    return "exited with code " + std::to_string(WEXITSTATUS(status));
}

bool writeConfig(const std::filesystem::path& dir, const ExperimentConfig& config)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::ofstream out(dir / "config.yaml", std::ios::binary | std::ios::trunc);
    out << toYaml(config);
    if (out)
        return true;
    std::cerr << "synctax-run: cannot write " << (dir / "config.yaml").string() << "\n";
    return false;
}

// Waits for every rank. Once one has ended badly (or on a stop), the others get the collective
// timeout and a few seconds to end on their own, then are killed.
void watchRanks(std::vector<RankProcess>& ranks, double timeoutS)
{
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> deadline;
    bool forwarded = false;
    size_t running = ranks.size();
    while (running > 0) {
        for (RankProcess& r : ranks) {
            int status = 0;
            if (!r.running || waitpid(r.pid, &status, WNOHANG) != r.pid)
                continue;
            r.running = false;
            --running;
            const bool ok = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 130);
            r.outcome.status = ok ? "ok" : WIFSIGNALED(status) ? "killed" : "failed";
            if (!ok) {
                r.outcome.message = describeEnd(status);
                std::cerr << "synctax-run: rank " << r.rank << " " << r.outcome.message << "\n";
                if (!deadline)
                    deadline = Clock::now() + std::chrono::milliseconds(int64_t(timeoutS * 1000) + 5000);
            }
        }
        if (g_rankStop.load() && !forwarded) {
            for (const RankProcess& r : ranks) {
                if (r.running)
                    kill(r.pid, SIGINT);
            }
            forwarded = true;
            deadline = deadline.value_or(Clock::now() + std::chrono::milliseconds(int64_t(timeoutS * 1000) + 5000));
        }
        if (deadline && Clock::now() > *deadline) {
            for (RankProcess& r : ranks) {
                if (!r.running)
                    continue;
                kill(r.pid, SIGKILL);
                waitFor(r.pid);
                r.running = false;
                --running;
                r.outcome.status = "hung";
                r.outcome.message = "still running " + formatNumber("%.0f", timeoutS)
                    + " s (the collective timeout) after another rank ended; killed";
                std::cerr << "synctax-run: rank " << r.rank << " " << r.outcome.message << "\n";
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// Each rank started as a process of this program in DIR/rank-K/, meeting at `rendezvous`; false
// when a rank's config cannot be written (said on stderr).
bool startRanks(const ExperimentConfig& config, const std::filesystem::path& outDir,
    const std::filesystem::path& rendezvous, std::vector<RankProcess>& ranks)
{
    for (int k = 0; k < config.distributed->ranks; ++k) {
        const std::filesystem::path dir = outDir / rankFolderName(k);
        if (!writeConfig(dir, config))
            return false;
        RankProcess r;
        r.rank = k;
        r.outcome.rank = k;
        r.outcome.folder = rankFolderName(k);
        // Rank 0's progress and messages show here; the others' are in their log.txt.
        r.pid = spawnRun(dir, { "--rank", std::to_string(k), "--rendezvous", rendezvous.string() }, k == 0);
        r.running = r.pid > 0;
        if (!r.running) {
            r.outcome.status = "failed";
            r.outcome.message = "could not be started";
        }
        ranks.push_back(r);
    }
    return true;
}

// The results each rank wrote, into its outcome; the lowest rank's whole, for its groups, orders
// and notes, or nothing when no rank wrote any.
std::optional<ExperimentResult> collectRanks(std::vector<RankProcess>& ranks, const std::filesystem::path& outDir)
{
    std::optional<ExperimentResult> merged;
    for (RankProcess& r : ranks) {
        const ResultsLoadResult loaded = loadResultsFile((outDir / r.outcome.folder / resultsFileName).string());
        if (!loaded.result)
            continue;
        r.outcome.cells = loaded.result->cells;
        if (!merged)
            merged = *loaded.result;
    }
    return merged;
}

// The same experiment in one process, after the ranks, for the tax without collectives: its cells,
// and its groups (their regimes and captured steps: what the rank predictions replay). Empty when
// it did not run to its end.
struct SingleRun {
    std::vector<CellResult> cells;
    std::vector<GroupResult> groups;
};

SingleRun runSingle(const ExperimentConfig& config, const std::filesystem::path& outDir)
{
    ExperimentConfig single = config;
    single.distributed.reset();
    single.name = config.name + "-single";
    const std::filesystem::path dir = outDir / "single";
    std::cerr << "synctax-run: the same models and styles in one process, for comparison\n";
    SingleRun run;
    const pid_t pid = writeConfig(dir, single) ? spawnRun(dir, {}) : -1;
    if (pid > 0 && waitFor(pid) == 0) {
        if (const ResultsLoadResult loaded = loadResultsFile((dir / resultsFileName).string()); loaded.result) {
            run.cells = loaded.result->cells;
            run.groups = loaded.result->groups;
        }
    }
    return run;
}

// The ranks' result with each rank's outcome, the single process's cells and the predictions,
// shown and written into DIR; the run's exit code.
int writeRanks(ExperimentResult& result, const ExperimentConfig& config, const std::filesystem::path& outDir,
    const std::vector<RankProcess>& ranks, const SingleRun& single, std::chrono::steady_clock::time_point start,
    bool allOk)
{
    result.config = config;
    result.distributed = DistributedResult {};
    result.distributed->singleProcess = single.cells;
    for (const RankProcess& r : ranks)
        result.distributed->ranks.push_back(r.outcome);
    predictRankCells(result, single.groups);
    result.durationS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.stopped = result.stopped || g_rankStop.load();
    std::cout << "\n"
              << config.name << " on " << result.environment.device << ", torch " << result.environment.torchVersion
              << ", " << formatDuration(result.durationS) << ", " << config.distributed->ranks << " ranks\n"
              << formatTable(result, terminalColumns(stdout)) << formatRankTable(result) << std::flush;
    try {
        writeRunOutputs(outDir.string(), { result });
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "wrote " << (outDir / resultsFileName).string() << " and summary.csv (all ranks); each rank's in "
              << (outDir / "rank-N").string() << "\n";
    if (!allOk) {
        std::cerr << "synctax-run: the run ended early: a rank failed; what the ranks wrote is kept\n";
        return 1;
    }
    return result.stopped ? 130 : 0;
}

} // namespace

int runRanks(const ExperimentConfig& config, const std::filesystem::path& outDir, const RunOptions& options)
{
    const DistributedSpec& spec = *config.distributed;
    std::cerr << "synctax-run: " << config.name << " data-parallel over " << spec.ranks << " ranks ("
              << toString(spec.backend) << ", styles on " << toString(spec.syncOn) << "); results in "
              << outDir.string() << "\n";
    const auto start = std::chrono::steady_clock::now();
    const std::filesystem::path rendezvous = outDir / "rendezvous";
    std::error_code ec;
    std::filesystem::remove(rendezvous, ec); // a FileStore must start empty
    g_rankStop.store(false);
    std::signal(SIGINT, requestRankStop);
    std::signal(SIGTERM, requestRankStop);
    std::vector<RankProcess> ranks;
    if (!startRanks(config, outDir, rendezvous, ranks))
        return 2;
    watchRanks(ranks, spec.timeoutS);
    std::filesystem::remove(rendezvous, ec);

    const bool allOk
        = std::all_of(ranks.begin(), ranks.end(), [](const RankProcess& r) { return r.outcome.status == "ok"; });
    std::optional<ExperimentResult> merged = collectRanks(ranks, outDir);
    const SingleRun single = allOk && !g_rankStop.load() ? runSingle(config, outDir) : SingleRun {};
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (!merged) {
        std::cerr << "synctax-run: no rank wrote results; rank 0 said why above, the others in "
                  << (outDir / "rank-N").string() << "/log.txt\n";
        return 1;
    }
    return writeRanks(*merged, config, outDir, ranks, single, start, allOk);
}

} // namespace synctax
