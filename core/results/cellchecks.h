#pragma once

#include "core/analysis/experimentresult.h"

#include <string>
#include <vector>

namespace synctax {

// One problem of a list of cells: where (a JSON pointer) and what.
struct CellProblem {
    std::string pointer;
    std::string message;
};

// What the runner guarantees of every list of cells it writes, checked in a file read back: each
// style known (the catalog's, or a control the runner adds), each cell once, and in each group the
// baseline every overhead is measured against. `cells` were read from `pointer` in order (cell i
// at pointer/i); `config` names sweep points in the messages.
std::vector<CellProblem> cellListProblems(
    const std::vector<CellResult>& cells, const std::string& pointer, const ExperimentConfig& config);

} // namespace synctax
