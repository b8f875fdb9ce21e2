#pragma once

#include "core/trace/tracewhatif.h"

#include <string>

namespace synctax {

// The what-if block of `synctax-run trace`, each line under 80 columns: per logging style the
// step time and tax that a replay of the trace's loop predicts (the loop as recorded marked, first),
// then the model line and the uncertainty; or, when the loop cannot be replayed, why not.
std::string formatWhatIfTable(const ImportedLoop& loop, const WhatIf& whatIf);

// "the host time the rows assume is known to within 12%", or "not estimated": the uncertainty's words.
std::string uncertaintyText(const WhatIf& whatIf);
// " [+9.0, +13.4]": a row's range as printed after its tax; empty where it has none at one decimal.
std::string taxRangeText(const WhatIfRow& row);

// "+5.00 ms": the host work a what-if adds per step, as its title and the app's label say it.
std::string hostWorkText(double hostWorkUs);

} // namespace synctax
