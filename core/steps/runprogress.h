#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace synctax {

struct RunProgress {
    int64_t blocksDone = 0;
    int64_t blocksTotal = 0;
    std::string cell; // "model/mode/style" of the block just finished, or the current phase
    double elapsedS = 0;
    double remainingS = -1; // estimated seconds left (see estimateRemainingS); -1: not known yet

    // The share of the run done: by time where the time left is known, else by blocks.
    double fraction() const;
};

// What is left of one model and mode: its blocks (every round it may still run) and its time.
struct GroupWork {
    int64_t blocksLeft = 0;
    double budgetLeftS = 0;
};

// Seconds left in a run: each model and mode ends when its time budget is spent or its blocks are
// done, whichever comes first, so each counts the smaller of the two, its blocks at
// `secondsPerBlock` (the pace so far; <= 0 when not known yet, then its budget alone counts).
double estimateRemainingS(const std::vector<GroupWork>& groups, double secondsPerBlock);

} // namespace synctax
