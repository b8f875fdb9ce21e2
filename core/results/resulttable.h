#pragma once

#include "core/analysis/experimentresult.h"
#include "core/text/format.h"

#include <string>

namespace synctax {

// How the table names a group: "model", "model/mode" when the run has several modes, then the
// sweep's point when the run swept ("resnet50 h=15 ms").
std::string groupLabel(const ExperimentResult& result, const GroupKey& group);

// The seed-style table: one row per style, per model (and mode) the step time and the overhead
// against the baseline with its 95% interval; then what it means and how each model ran. Laid out
// to fit `columns` (a narrow terminal): models in blocks one under the other, notes wrapped. 0 is
// no limit (a wide terminal, a pipe or a file): every model side by side, a note per line.
std::string formatTable(const ExperimentResult& result, int columns = 0);

// The table's last lines when a model and mode is too noisy to tell styles apart (noiseverdict.h):
// which and why, each line under 80 columns; empty when none is.
std::string formatNoiseVerdicts(const ExperimentResult& result);

// One line per cell, C locale, units in the column names.
std::string summaryCsv(const ExperimentResult& result);

} // namespace synctax
