#pragma once

#include "core/engine/distributed/collectives.h"
#include "core/engine/run/experimentrunner.h"

#include <memory>
#include <string>

namespace synctax {

// What a rank process needs to run its part of a data-parallel run with ExperimentRunner: the
// group it joined, and the runner's lockstep over it.
struct RankRun {
    std::unique_ptr<Collectives> collectives;
    Lockstep lockstep;
    std::string device; // cuda:<rank> for nccl; the config's otherwise
};

// Joins the ranks of config.distributed at `rendezvous` as `rank` (throws std::runtime_error when
// it cannot). Test hooks, to show how a run ends when a rank fails: SYNCTAX_TEST_KILL_RANK=RANK:STEPS
// makes that rank kill itself (SIGKILL) after that many training steps, SYNCTAX_TEST_HANG_RANK the
// same to hang there (sleeping, its connections open) until it is killed.
RankRun joinRun(const ExperimentConfig& config, int rank, const std::string& rendezvous);

} // namespace synctax
