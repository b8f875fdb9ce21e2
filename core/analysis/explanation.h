#pragma once

#include "core/analysis/experimentresult.h"

#include <string>
#include <vector>

namespace synctax {

// "GPU-bound", "Dispatch-bound", "Balanced", or "No GPU queue" when the regime was not measured.
std::string regimeTitle(const RegimeMeasurement& regime);

// The measured quantities in one line: "D 1.01 ms · G 0.231 ms · L 8.0 µs · K 161 · H 0 µs".
// Empty when the regime was not measured.
std::string regimeNumbers(const RegimeMeasurement& regime);

// The regime a group's explanation speaks of: the probe's, with D and G the replayed step's where
// the group has one (the label is already the replay's), so a queue-limited D is not quoted.
RegimeMeasurement groupRegime(const GroupResult& group);

// One or two sentences on why per-step syncs cost what they cost in this model and mode, with the
// measured numbers of its regime and, when `cells` hold it, the measured overhead of its `item` cell.
// The overhead interval is written as formatOverhead() in core/text/format.h writes it. A
// group too noisy to tell styles apart says so; on a CPU the last sentence says there is no GPU
// queue to explain.
std::string explainGroup(const GroupResult& group, const std::vector<CellResult>& cells);

} // namespace synctax
