#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace synctax {

class StepExecutor;
class TrainingState;

// How one rank of a data-parallel run (core/engine/distributed/rankrun.h) keeps in step with the others:
// the same steps, blocks and rounds on every rank, so every decision that could differ between
// them (warm-up's end, a time budget, the interval target, a stop) is taken together, by anyRank,
// and no block is cut short.
struct Lockstep {
    std::function<std::unique_ptr<StepExecutor>(std::unique_ptr<TrainingState>)> makeExecutor;
    std::function<bool(bool)> anyRank; // whether any rank passed true
    // Per step since the last call: the host time blocked in the collectives, in ms. The runner calls
    // it once warm-up is over (dropping warm-up's) and after every block, whose records carry them.
    std::function<std::vector<double>()> takeWaitMs;
    uint64_t stateSeed = 1; // the model's and data's seed on this rank; the block order takes the config's
    bool runsStyles = true; // false: this rank logs nothing, every cell runs the baseline (sync_on: rank0)
};

} // namespace synctax
