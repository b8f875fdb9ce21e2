#pragma once

#include "core/analysis/noiseverdict.h"
#include "core/config/experimentconfig.h"
#include "core/config/sweepgrid.h"
#include "core/queuemodel/prediction.h"
#include "core/queuemodel/regime.h"
#include "core/queuemodel/stylereplay.h"
#include "core/statistics/statistics.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

struct Environment {
    std::string synctaxVersion;
    std::string torchVersion;
    bool cudaBuild = false; // Torch was built with CUDA
    std::string device; // as resolved: "cpu", "cuda:0"
    std::string deviceName;
    std::string driverVersion; // empty when unknown
    std::string pciBusId; // empty on CPU
    std::string cpu;
    std::string host;
    int cpuThreads = 0;
};

struct StepStats {
    double median = 0;
    double p10 = 0;
    double p90 = 0;
    double mean = 0;
};

struct QueueSummary {
    double medianLagMs = 0;
    double medianQueueSteps = 0;
    int maxQueueSteps = 0;
};

// A data-parallel rank's cell as the queue model's barrier replay predicts it
// (core/queuemodel/barrierreplay.h, calibrated in core/analysis/rankprediction.h).
struct RankPrediction {
    Prediction tax; // against this rank's baseline; the regime and which model replayed the steps
    double stepMs = 0; // mean per step over a block, as blockStepMs
    double collectiveWaitMs = 0; // per step: from the rank's arrival at the all-reduce to its end
    double collectiveMs = 0; // the all-reduce's own time the replay charged, fitted to the baselines
};

// One model x mode x style combination, at one host work and batch, and what was measured for it.
// Its host work is per step, as run (a sweep's point or the config's).
struct CellResult : CellKey {
    bool ok = true;
    std::string error; // why the cell failed
    int64_t stepsPerBlock = 0;
    int64_t stepsMeasured = 0;
    int64_t warmupSteps = 0; // dropped before measuring, for the cell's model and mode
    std::vector<int> blockRounds; // the rounds in which a whole block was measured
    std::vector<double> blockStepMs; // per such block: its duration / its steps
    // Per such block: the host's own time per step, host work left out (BlockTiming::dispatchMsPerStep);
    // empty in files from before it was measured.
    std::vector<double> blockDispatchMs;
    // Per such block: the host's own time of its first two steps, host work left out, where it had two
    // (BlockTiming::firstStepsDispatchMs); the queue has not filled yet there, so they time the host
    // itself from step to step. Empty in files from before they were kept.
    std::vector<std::array<double, 2>> blockFirstStepsMs;
    StepStats stepMs;
    std::optional<Interval> overheadPct; // against the baseline of the same model and mode
    std::optional<double> naiveBestOfPct;
    std::optional<Verdict> verdict;
    int pairedRounds = 0; // rounds in which this cell and the baseline both measured a block
    int lowClockBlocks = 0; // blocks that ended with the SM clock under 75% of its default
    std::optional<double> syncsPerStep; // counted in the unmeasured round; CUDA only
    std::optional<QueueSummary> queue; // from per-step CUDA events; CUDA only
    std::optional<Prediction> prediction; // the queue model's, from the group's measured regime; CUDA only
    int64_t graphReplays = -1; // cuda_graph cells: replays in measured blocks; -1 otherwise
    // A data-parallel rank's: per measured step, the host time blocked waiting for its gradient
    // all-reduces (the other ranks' stalls land here).
    std::optional<StepStats> collectiveWaitMs;
    std::optional<RankPrediction> rankPrediction; // a rank's, in the launcher's results (all ranks known)
};

struct DriftCheck {
    double firstHalfMs = 0; // baseline ms/step, geometric mean of the first half of the rounds
    double secondHalfMs = 0;
    double pct = 0;
    double limitPct = 0; // the A/A control's interval width
    bool flagged = false;
};

struct ClockSummary {
    bool available = false;
    std::string reason; // why not, when not available
    unsigned defaultMhz = 0;
    unsigned minMhz = 0;
    unsigned medianMhz = 0;
    unsigned maxMhz = 0;
    int blocks = 0;
    int lowClockBlocks = 0; // under 75% of defaultMhz (NVBench's rule)
    uint64_t throttleReasons = 0; // union over blocks
};

// One step of the group's model and mode captured with the PyTorch profiler (Kineto) outside the
// timed blocks, and how it was brought to unprofiled timing.
struct CapturedReplay {
    std::string traceFile; // the capture as Kineto wrote it, when kept (`run --kineto DIR`)
    int capturedSteps = 0;
    double dispatchMs = 0; // unprofiled host time of one step from an idle GPU (median)
    // Unprofiled, from the start of one step on an idle GPU (after the loop's host work) to its GPU
    // work done: dispatchMs plus the median of each step's time from its last launch to that; 0 where
    // it was not measured (files from before it was)
    double drainMs = 0;
    // The median of the same steps' drains, as drainMs was before it was paired (not used; kept to
    // compare the two on one run); 0 where not kept
    double drainMedianMs = 0;
    double profiledHostMs = 0; // the same step's host time under the profiler
    ReplayCalibration calibration;
    ReplayCosts costs; // L and every style's cost, measured on an idle GPU
    // The host's factor that brings the calibrated step to the baseline's measured blocks, after the
    // calibration: to the median of their host time per step where measured (block_dispatch_ms),
    // else to their step time (fitHostToBaseline: 1 where within 2% of it or GPU-bound).
    double baselineHostScale = 1;
    double tailMs = 0; // GPU time moved to the step's last op to meet the baseline's lag (fitTailToLag)
    double idleStartUs = 0; // the GPU's start on an idle queue, fitted to drainMs (fitIdleStartToDrain)
    ReplayRegime regime; // from the step as predicted (both factors) and the group's host work
    StepSequence step; // the median captured step, calibrated
};

// What applies to all cells of one model and mode at one host work and batch (core/config/groupkey.h: GroupKey).
struct GroupResult : GroupKey {
    int64_t warmupSteps = 0;
    int rounds = 0;
    std::string stopReason; // ci_target, time_budget, max_blocks, stopped, failed
    double noiseFloorPct = 0;
    // Whether the overheads can tell styles apart; too noisy means no cell is a finding.
    NoiseVerdict noiseVerdict = NoiseVerdict::NoControl;
    std::optional<DriftCheck> drift;
    ClockSummary clocks;
    RegimeMeasurement regime;
    // The launch sequence the predictions replayed, where the build could capture one (CUDA
    // builds with Kineto); absent: the uniform model made them.
    std::optional<CapturedReplay> replay;
    std::string replayAbsent; // why there is no replay, when there is none
    // Rounds measured in each process, in order, when the run was spread over several (the
    // rounds are numbered across them); empty for a run in one process.
    std::vector<int> processRounds;
};

// The order in which one round of a model and mode ran its styles (seeded, shuffled each round).
struct RoundOrder : GroupKey {
    int round = 0;
    std::vector<std::string> styles;
};

// One rank of a data-parallel run, as the launcher saw it end.
struct RankOutcome {
    int rank = 0;
    std::string status; // ok, failed (its exit code), killed (a signal), hung (killed by the launcher)
    std::string message; // why not ok
    std::vector<CellResult> cells; // from its results.json, where it wrote one
    // Its outputs (results.json, steps.csv) relative to the launcher's results.json: "rank-K";
    // empty in files written before it was recorded.
    std::string folder;
};

// A data-parallel run (config.distributed): in a rank's own results which rank it was; in the
// launcher's every rank's cells, and the same models and styles run in one process beside them.
struct DistributedResult {
    int rank = -1; // -1: the launcher's results, of all ranks
    std::vector<RankOutcome> ranks;
    std::vector<CellResult> singleProcess; // empty where it was not run (a rank failed, a stop)
};

struct ExperimentResult {
    Environment environment;
    ExperimentConfig config;
    std::vector<CellResult> cells;
    std::vector<GroupResult> groups;
    std::vector<RoundOrder> roundOrders;
    std::string startedAt; // ISO 8601, UTC
    double durationS = 0;
    bool stopped = false; // the run was cancelled; the cells hold what was measured
    uint64_t droppedRecords = 0;
    std::vector<std::string> notes; // things the user should know, said once
    std::optional<DistributedResult> distributed;
};

} // namespace synctax
