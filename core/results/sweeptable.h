#pragma once

#include "core/analysis/experimentresult.h"

#include <string>

namespace synctax {

// What a run that swept host work printed after its table (synctax-run) and what the app's export
// writes beside its charts: per model, mode and style (sweepCurves) the tax at each host work,
//
//   tax against host work: resnet50/eager/item
//   host work | measured [95% CI]   | predicted
//   ----------+---------------------+----------
//        0 ms | +0.4% [+0.1, +0.8]  | +0.3%
//
// measured as the table's overhead, predicted from the queue model (- where there is none, as on
// the CPU). Empty for a run without a host-work sweep.
std::string formatSweepTables(const ExperimentResult& result);

} // namespace synctax
