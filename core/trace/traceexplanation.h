#pragma once

#include "core/trace/tracereport.h"

#include <string>
#include <vector>

namespace synctax {

// One sentence on what the trace's regime (D, G, H per step, as classifyRegime reads them) means
// for its syncs, in the words of explainGroup (core/analysis/explanation.h).
std::string explainTraceRegime(const TraceRegime& regime, double taxPct);

// What to tell the user about one trace, as plain paragraphs: `synctax-run trace` wraps them, the
// app's Trace view escapes them into HTML. An empty paragraph is one that does not apply.
struct TraceExplanation {
    std::string regime; // the regime in this loop's numbers and what it means for its syncs
    std::string tax; // what the syncs cost per step, or that there is no sync to remove
    std::string worstSite; // the costliest site: its op, its Python line, its cost per step
    std::string remedy; // what to try for that site's op, starting "What to try: "
    std::string otherSites; // how many cheaper sites there are
    std::vector<std::string> notes; // what the trace lacked (the report's notes)

    // The paragraphs that apply, in reading order, without the notes.
    std::vector<std::string> paragraphs() const;
};

TraceExplanation explainTrace(const TraceReport& report);

// What to try instead of a sync caused by `op` (aten::item, aten::nonzero, ...) whose CUDA call
// was `api` (cudaMemcpyAsync DtoH, ...), in a sentence.
std::string syncRemedy(const std::string& op, const std::string& api);

} // namespace synctax
