#include "core/engine/distributed/rankrun.h"

#include "core/engine/distributed/collectives.h"
#include "core/engine/distributed/dataparallelexecutor.h"

#include <torch/torch.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

namespace synctax {

namespace {

// HOOK=RANK:STEPS: the steps after which this rank dies (or hangs), or -1.
int64_t stepsBefore(const char* hookName, int rank)
{
    const char* hook = std::getenv(hookName);
    if (!hook)
        return -1;
    const std::string text(hook);
    const size_t colon = text.find(':');
    if (colon == std::string::npos || std::atoi(text.substr(0, colon).c_str()) != rank)
        return -1;
    return std::atoll(text.substr(colon + 1).c_str());
}

struct TestHooks {
    int64_t dieAfter = -1;
    int64_t hangAfter = -1;
};

// The data-parallel step; dies or hangs where the test hooks say.
class RankExecutor : public DataParallelExecutor {
public:
    RankExecutor(std::unique_ptr<TrainingState> state, Collectives& collectives, TestHooks hooks)
        : DataParallelExecutor(std::move(state), collectives)
        , m_hooks(hooks)
    {
    }
    StepOutput step() override
    {
        if (m_steps == m_hooks.dieAfter)
            std::raise(SIGKILL);
        while (m_steps == m_hooks.hangAfter)
            std::this_thread::sleep_for(std::chrono::seconds(1));
        ++m_steps;
        return DataParallelExecutor::step();
    }

private:
    TestHooks m_hooks;
    int64_t m_steps = 0;
};

} // namespace

RankRun joinRun(const ExperimentConfig& config, int rank, const std::string& rendezvous)
{
    const DistributedSpec& spec = *config.distributed;
    RankRun run;
    run.device = config.device;
    if (spec.backend == CollectiveBackend::Nccl)
        run.device = "cuda:" + std::to_string(rank);
    run.collectives = joinRanks(spec.backend, rendezvous, rank, spec.ranks, spec.timeoutS, run.device);
    Collectives* collectives = run.collectives.get();
    // The executor of the group under way, for its wait times; the runner owns it.
    auto current = std::make_shared<DataParallelExecutor*>(nullptr);
    const TestHooks hooks { stepsBefore("SYNCTAX_TEST_KILL_RANK", rank), stepsBefore("SYNCTAX_TEST_HANG_RANK", rank) };
    run.lockstep.makeExecutor = [collectives, current, hooks](std::unique_ptr<TrainingState> state) {
        auto executor = std::make_unique<RankExecutor>(std::move(state), *collectives, hooks);
        *current = executor.get();
        return std::unique_ptr<StepExecutor>(std::move(executor));
    };
    run.lockstep.takeWaitMs = [current] { return *current ? (*current)->takeWaitMs() : std::vector<double> {}; };
    run.lockstep.anyRank = [collectives](bool mine) { return collectives->anyRank(mine); };
    // Each rank its own data (and initial weights, which rank 0's then replace).
    run.lockstep.stateSeed = config.seed + uint64_t(rank);
    run.lockstep.runsStyles = spec.syncOn == SyncOn::All || rank == 0;
    return run;
}

} // namespace synctax
