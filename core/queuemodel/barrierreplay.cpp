#include "core/queuemodel/barrierreplay.h"

#include "core/queuemodel/replaystate.h"
#include "core/queuemodel/stylestep.h"

#include <algorithm>

namespace synctax {

namespace {

// The collective at a step's end: every rank's arrival, the end at the latest plus its cost, and
// each rank held to that end where it waits (its host for Gloo, its GPU's later ops for NCCL).
void replayCollective(std::vector<ReplayState>& states, std::vector<double>& waitUs, const BarrierOptions& barrier)
{
    std::vector<double> arrival(states.size());
    double last = 0;
    for (size_t r = 0; r < states.size(); ++r) {
        arrival[r] = std::max(states[r].host, states[r].gpuFree);
        last = std::max(last, arrival[r]);
    }
    const double end = last + barrier.collectiveUs;
    for (size_t r = 0; r < states.size(); ++r) {
        ReplayState& s = states[r];
        waitUs[r] += end - arrival[r];
        if (barrier.wait == CollectiveWait::Host) {
            s.host = end;
            s.pending.clear(); // the GPU had finished everything before the rank arrived
        } else {
            s.gpuFree = std::max(s.gpuFree, end);
        }
    }
}

} // namespace

std::vector<RankBlockReplay> replayBarrierBlock(const std::vector<StepSequence>& ranks, const StyleSpec& style,
    std::int64_t stepsPerBlock, const ReplayOptions& options, const ReplayCosts& costs, const BarrierOptions& barrier)
{
    const size_t capacity = size_t(std::max<std::int64_t>(1, options.queueCapacity));
    const std::int64_t steps = std::max<std::int64_t>(1, stepsPerBlock);
    const StyleWork styled = styleWork(style, costs);
    const StyleWork baseline = styleWork({ baselineStyle(), 0 }, costs);
    std::vector<ReplayState> states(ranks.size());
    std::vector<double> waitUs(ranks.size(), 0.0);
    for (std::int64_t step = 0; step < steps; ++step) {
        for (size_t r = 0; r < ranks.size(); ++r)
            replayHostAndStep(states[r], ranks[r], options, capacity);
        replayCollective(states, waitUs, barrier);
        for (size_t r = 0; r < ranks.size(); ++r) {
            const bool runsStyle = barrier.styleOnEveryRank || r == 0;
            replayStyleWork(states[r], runsStyle ? styled : baseline, step, steps, capacity);
        }
    }
    std::vector<RankBlockReplay> out(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) {
        ReplayState& s = states[r];
        replaySync(s, costs.syncUs); // the closing synchronize every style pays, the baseline included
        out[r].msPerStep = s.host * 1e-3 / double(steps);
        out[r].collectiveWaitMsPerStep = waitUs[r] * 1e-3 / double(steps);
        out[r].syncWaitMsPerStep = s.syncWait * 1e-3 / double(steps);
    }
    return out;
}

std::vector<std::vector<RankStylePrediction>> predictRankStyles(const std::vector<StepSequence>& ranks,
    const std::vector<StyleSpec>& styles, std::int64_t stepsPerBlock, const ReplayOptions& options,
    const ReplayCosts& costs, const BarrierOptions& barrier)
{
    // Per rank: the style's step and wait, in blocks or in a long loop's steady state.
    const auto replay = [&](const StyleSpec& style) {
        std::vector<RankStylePrediction> perRank(ranks.size());
        if (stepsPerBlock > 0) {
            const auto block = replayBarrierBlock(ranks, style, stepsPerBlock, options, costs, barrier);
            for (size_t r = 0; r < ranks.size(); ++r)
                perRank[r] = { block[r].msPerStep, block[r].collectiveWaitMsPerStep, 0 };
            return perRank;
        }
        const std::int64_t n = steadySteps(style);
        const auto shortBlock = replayBarrierBlock(ranks, style, n, options, costs, barrier);
        const auto longBlock = replayBarrierBlock(ranks, style, 2 * n, options, costs, barrier);
        for (size_t r = 0; r < ranks.size(); ++r) {
            perRank[r] = { steadyPerStep(n, shortBlock[r].msPerStep, longBlock[r].msPerStep),
                steadyPerStep(n, shortBlock[r].collectiveWaitMsPerStep, longBlock[r].collectiveWaitMsPerStep), 0 };
        }
        return perRank;
    };
    const std::vector<RankStylePrediction> baseline = replay({ baselineStyle(), 0 });
    std::vector<std::vector<RankStylePrediction>> out(ranks.size());
    for (const StyleSpec& style : styles) {
        const std::vector<RankStylePrediction> perRank = style.name == baselineStyle() ? baseline : replay(style);
        for (size_t r = 0; r < ranks.size(); ++r) {
            RankStylePrediction p = perRank[r];
            p.taxPct = baseline[r].stepMs > 0 ? (p.stepMs / baseline[r].stepMs - 1.0) * 100.0 : 0.0;
            out[r].push_back(p);
        }
    }
    return out;
}

} // namespace synctax
