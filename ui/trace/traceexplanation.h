#pragma once

#include "core/analysis/tracereport.h"

#include <QString>

namespace synctax {

// What to tell the user about this loop, as HTML paragraphs: its regime in its own numbers, what
// the syncs cost, its worst sync site and what that costs, and what to try for that site's op.
QString traceExplanation(const TraceReport& report);

// What to try instead of a sync caused by `op` (aten::item, aten::nonzero, ...), in a sentence.
QString syncRemedy(const std::string& op, const std::string& api);

} // namespace synctax
