#pragma once

#include "core/config/experimentconfig.h"
#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/replaysimulator.h"
#include "core/queuemodel/stylereplay.h"

#include <cstdint>
#include <vector>

namespace synctax {

// How a rank waits for the collective that ends its step (the gradients' all-reduce).
enum class CollectiveWait {
    // Gloo: the host blocks in the collective until it ends. A rank arrives once its host has reached
    // it and its GPU has finished the step's work (Gloo copies the gradients out), so on a step with
    // GPU work it is also a sync.
    Host,
    // NCCL: the collective is one more op in the rank's stream. A rank arrives when its GPU reaches
    // it; its later GPU ops wait for the collective's end, its host does not.
    Stream,
};

struct BarrierOptions {
    double collectiveUs = 0; // the collective's own time once every rank has arrived
    CollectiveWait wait = CollectiveWait::Host;
    bool styleOnEveryRank = false; // sync_on all; else rank 0 runs the style and the others the baseline
};

struct RankBlockReplay {
    double msPerStep = 0; // the rank's block duration over its steps, its closing synchronize included
    double collectiveWaitMsPerStep = 0; // from the rank's arrival at each collective to the collective's end
    double syncWaitMsPerStep = 0; // host time waiting in syncs (the style's and the recorded ones)
};

// One block on every rank from a common start and idle GPUs, as the runner times it. Each step every
// rank does H and its own recorded step, then arrives at the collective, which ends at the latest
// arrival plus collectiveUs (a barrier: no rank's next step starts before that on the rank's waiting
// side); then the style's work on the ranks that run it (stylereplay.h's); at the block's end each
// rank's closing synchronize. One rank with collectiveUs 0 replays exactly as replayStyleBlock does
// (in Host mode where the step has no GPU work). Deterministic.
std::vector<RankBlockReplay> replayBarrierBlock(const std::vector<StepSequence>& ranks, const StyleSpec& style,
    std::int64_t stepsPerBlock, const ReplayOptions& options, const ReplayCosts& costs, const BarrierOptions& barrier);

struct RankStylePrediction {
    double stepMs = 0;
    double collectiveWaitMs = 0; // per step
    double taxPct = 0; // against the same rank's baseline ("none") replayed the same way
};

// Every rank's step time, collective wait and tax for each style, as predictStyles does for one
// process: stepsPerBlock > 0 blocks as the runner times them, 0 a long loop's steady state (a block
// of 2N steps minus one of N). Indexed [rank][style].
std::vector<std::vector<RankStylePrediction>> predictRankStyles(const std::vector<StepSequence>& ranks,
    const std::vector<StyleSpec>& styles, std::int64_t stepsPerBlock, const ReplayOptions& options,
    const ReplayCosts& costs, const BarrierOptions& barrier);

} // namespace synctax
