#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace synctax {

class LoggingStyle;
class StepExecutor;

// One cell while its model and mode run: where its result goes and what its measured blocks saw.
struct CellRun {
    CellResult* result = nullptr;
    uint32_t index = 0;
    std::unique_ptr<LoggingStyle> style; // null once the cell failed
    std::vector<double> stepMs; // every measured step's duration, start to next start
    std::vector<double> lagMs; // per measured step, from the CUDA events
    std::vector<double> queueSteps;
    std::vector<double> waitMs; // per measured step of a data-parallel rank: host time blocked in its all-reduces
};

// One model (at one point of its sweep) and mode under way in ExperimentRunner: the group's
// result, its cells with the style each runs, the step executor, and the GPU clock after every
// measured block.
struct GroupRun {
    GroupRun(const ModelSpec& model, Mode mode, const ExperimentConfig& config, int64_t startNs);
    ~GroupRun();

    const ModelSpec& model;
    const Mode mode;
    const std::string modeName;
    const std::string label; // "model/mode", with the sweep's point when swept, for the progress
    const int64_t startNs;
    const int64_t deadlineNs; // the model's time budget, warm-up included, on the steady clock
    const int64_t steps; // per block
    const int64_t maxRounds;
    const int64_t hostWorkUs;

    GroupResult group;
    std::vector<CellRun> cells;
    std::vector<StyleSpec> specs; // per cell; the controls run the baseline's
    std::unique_ptr<StepExecutor> executor;
    std::vector<unsigned> clockSamples; // SM MHz after each measured block, where NVML reads it

    // Whether the steady clock has passed the deadline; once it has, the rounds end with the stop
    // reason time_budget.
    bool outOfTime();
    bool budgetSpent = false;

    std::vector<CellResult*> results() const;
    std::vector<CellResult> resultCopies() const;
    void fail(CellRun& cell, const std::string& message);

    // After the rounds: each cell's step times, the paired overheads, the queue model's expectation
    // beside each measurement and the clocks over the group.
    void analyse(uint64_t seed);
};

} // namespace synctax
