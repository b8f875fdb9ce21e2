#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"
#include "core/config/sweepgrid.h"
#include "core/engine/run/lockstep.h"
#include "core/steps/cellplan.h"
#include "core/steps/runprogress.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace synctax {

struct CellRun;
class GpuClocks;
class GpuTimeline;
struct GroupRun;
class SyncCounter;
class Sink;
class StepRing;

// Runs an experiment: for each model and mode, warm up, then rounds in which every style (and an
// A/A copy of the baseline) runs one block of steps, in a fresh seeded random order, until every
// interval is narrow enough or the time budget is spent (see docs/method.md). Runs on the calling thread;
// pushes a record per step into the ring (if any) and stops within one step once `stop` is set or the
// model's time budget is spent (a block cut short is not recorded).
// A model with a sweep runs once per point of it (sweepGrid), each point a group of its own.
class ExperimentRunner {
public:
    // Throws DeviceError when the config's device cannot be had.
    ExperimentRunner(ExperimentConfig config, StepRing* ring = nullptr, uint32_t runId = 1);
    ~ExperimentRunner();

    const std::vector<CellPlan>& cells() const { return m_cells; }
    const std::string& device() const { return m_device; }
    int64_t plannedBlocks() const;

    std::function<void(const RunProgress&)> onProgress;
    // After every measured block: its cell, round and ms per step (called on the running thread).
    std::function<void(const CellPlan&, int round, int64_t steps, double msPerStep)> onBlockMeasured;
    std::function<void(const std::string&)> onNote;
    // After each model and mode: its group and its cells, analysed (called on the running thread).
    std::function<void(const GroupResult&, const std::vector<CellResult>&)> onGroupFinished;
    // Where each model and mode's profiled capture is kept as a Kineto trace; empty: not kept.
    std::string kinetoDir;
    // Set for a rank of a data-parallel run; none: a run of its own.
    std::optional<Lockstep> lockstep;

    ExperimentResult run(const std::atomic<bool>& stop);

private:
    // One model and mode, in phases: its cells, the model built and warmed up, the styles, the
    // rounds, the analysis, and the group handed on.
    void runGroup(const ModelSpec& model, Mode mode, const std::atomic<bool>& stop, ExperimentResult& result);
    void addCells(GroupRun& run, ExperimentResult& result);
    // Returns the error that failed every cell, if any.
    std::optional<std::string> buildAndWarmUp(GroupRun& run, const std::atomic<bool>& stop);
    // A step captured with the profiler for the queue model's replay (CUDA builds with Kineto).
    void captureReplay(GroupRun& run);
    void failGroup(GroupRun& run, const std::string& error, ExperimentResult& result);
    void makeStyles(GroupRun& run);
    // In lockstep: fails on every rank the cells that failed on any; false when the ranks lost each other.
    bool agreeOnCells(GroupRun& run);
    void runRounds(GroupRun& run, const std::atomic<bool>& stop, ExperimentResult& result);
    void runRound(
        GroupRun& run, int round, std::vector<size_t>& order, const std::atomic<bool>& stop, ExperimentResult& result);
    void runCellBlock(GroupRun& run, CellRun& cell, int round, const std::atomic<bool>& stop);
    // After a measured round: whether the rounds end here (every interval narrow enough: ci_target;
    // or the time budget spent).
    bool roundsDone(GroupRun& run, int round, int64_t& lastCheckNs);
    // In lockstep: whether any rank's rounds are done, or any rank was asked to stop.
    bool roundsDoneTogether(GroupRun& run, int round, int64_t& lastCheckNs, const std::atomic<bool>& stop);
    void endRounds(GroupRun& run, int rounds, const std::atomic<bool>& stop);
    void publishGroup(const GroupRun& run, ExperimentResult& result);
    void reportProgress(const std::string& cell);
    int64_t plannedBlocks(const ModelSpec& model, Mode mode) const;
    // A stop asked for: this process's, or in lockstep any rank's once the ranks agreed on it.
    bool stopped(const std::atomic<bool>& stop) const
    {
        return lockstep ? m_lockstepStopped || !m_lockstepLost.empty() : stop.load();
    }
    // A block's own stop: in lockstep none, so that every rank runs the whole block.
    const std::atomic<bool>& blockStop(const std::atomic<bool>& stop) const { return lockstep ? m_never : stop; }

    ExperimentConfig m_config;
    StepRing* m_ring;
    uint32_t m_runId;
    std::string m_device;
    std::vector<CellPlan> m_cells;
    std::unique_ptr<Sink> m_sink;
    std::unique_ptr<GpuClocks> m_clocks;
    std::unique_ptr<GpuTimeline> m_timeline;
    std::unique_ptr<SyncCounter> m_syncs;
    std::string m_clocksUnavailable;
    std::mt19937_64 m_rng;
    // The config's models once per point of their sweeps (sweepGrid): each runs as a group per mode.
    std::vector<ModelSpec> m_groupModels;
    int64_t m_blocksDone = 0;
    // Blocks that ran, for the pace: those an early end skipped count as done but took no time.
    int64_t m_blocksRun = 0;
    int64_t m_startNs = 0;
    // For the time left: each model and mode's planned blocks and budget, and the one under way.
    std::vector<GroupWork> m_groupPlans;
    size_t m_group = 0;
    int64_t m_groupStartNs = 0;
    int64_t m_groupFirstBlock = 0;
    bool m_lockstepStopped = false;
    std::string m_lockstepLost; // why the ranks could no longer agree (a rank died): the run ends
    std::atomic<bool> m_never { false };
};

} // namespace synctax
