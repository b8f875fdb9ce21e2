#pragma once

#include "core/steps/cellplan.h"
#include "core/steps/steprecord.h"

#include <vector>

namespace synctax {

// A run's steps as its steps.csv keeps them: the cells, and one record per step, read back.
struct StepLog {
    std::vector<CellPlan> cells; // in the order of their first step; index = position
    std::vector<StepRecord> records; // in the file's order (the order the steps started)
    bool hasCollectiveWait = false; // the records carry collectiveWaitMs (a data-parallel rank's file)
};

} // namespace synctax
