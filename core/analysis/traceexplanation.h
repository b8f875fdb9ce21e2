#pragma once

#include "core/analysis/tracereport.h"

#include <string>

namespace synctax {

// One sentence on what the trace's regime (D, G, H per step, as classifyRegime reads them) means
// for its syncs, in the words of explainGroup (core/analysis/explanation.h).
std::string explainTraceRegime(const TraceRegime& regime, double taxPct);

} // namespace synctax
