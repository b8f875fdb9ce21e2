#pragma once

#include "core/analysis/experimentresult.h"

#include <string>

namespace synctax {

// "+1.4% [+0.9, +1.9]"
std::string formatOverhead(const Interval& pct);

// The seed-style table: one row per style, per model (and mode) the step time and the overhead
// against the baseline with its 95% interval.
std::string formatTable(const ExperimentResult& result);

// One line per cell, C locale, units in the column names.
std::string summaryCsv(const ExperimentResult& result);

} // namespace synctax
