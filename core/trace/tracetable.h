#pragma once

#include "core/trace/tracereport.h"

#include <string>

namespace synctax {

// The text of `synctax-run trace`, each line under 80 columns: what a Kineto trace says about its
// steps and its syncs, durations as formatMs spells them (core/text/format.h).

// One row per step (D, G, K, syncs, their wait and bubble, the tax, the deepest queue, the lag),
// then the mean of the steps.
std::string formatStepTable(const TraceReport& report);

// One row per sync site, most bubble per step first, its Python line under its op; one line
// saying so when no sync falls inside a step.
std::string formatSiteTable(const TraceReport& report);

// The file's block: a title line, both tables, the regime's numbers, then explainTrace's
// paragraphs (regime, tax, worst site, what to try) and the notes, wrapped.
std::string formatTraceReport(const TraceReport& report);

// One line for one rank of a job, for ranks side by side: "rank 0: 5 steps, 12.3 ms/step, ...", wrapped at 80 columns.
std::string formatRankLine(const TraceReport& report);

} // namespace synctax
