#pragma once

#include "core/config/sweepgrid.h"
#include "core/steps/steplog.h"

#include <string>
#include <vector>

namespace synctax {

// One line of the Ranks dock's stall chart: per measured step of one cell, in the order the steps
// ran, rank 0's host step time or another rank's time blocked in the all-reduce. Every rank runs
// the same blocks in the same order and each all-reduce pairs the ranks' same step, so step k of
// one lane is step k of every other.
struct RankStallLane {
    enum class Kind { StepTime, CollectiveWait };
    int rank = 0;
    Kind kind = Kind::CollectiveWait;
    std::vector<double> ms;
};

struct RankStepLog {
    int rank = 0;
    const StepLog* steps = nullptr; // null: this rank's steps.csv could not be read
};

// The lanes of the cell `group`/`style`: rank 0's step time (start to the logging style's return:
// host_dispatch_us + host_logging_us), then each rank's collective_wait_ms, rank by rank (rank 0's
// too: its step time holds its own wait for the others, which tells a stall of its own from one of
// theirs), of the steps of measured rounds (round >= 0). A rank without a log or without the cell
// has no lane; one without the wait column has no wait lane.
std::vector<RankStallLane> rankStallLanes(
    const std::vector<RankStepLog>& ranks, const GroupKey& group, const std::string& style);

} // namespace synctax
