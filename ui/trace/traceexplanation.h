#pragma once

#include "core/trace/tracereport.h"

#include <QString>

namespace synctax {

// explainTrace's paragraphs (core/trace/traceexplanation.h, the words `synctax-run trace`
// prints) as HTML: one <p> each, "What to try:" in bold, the notes in italics.
QString traceExplanation(const TraceReport& report);

} // namespace synctax
