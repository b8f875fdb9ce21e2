// libFuzzer target: any bytes given to the Kineto trace reader (plain JSON or gzip: the reader
// recognises gzip by its bytes) must give a trace or an error, never a crash, a hang or undefined
// behaviour; a trace it gives must go through the analysis, HTA's variants and the tables the same
// way. Built by bench/fuzz.sh with clang's sanitizers, seeded with tests/data/traces/bad/.
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/traceexplanation.h"
#include "core/trace/tracehta.h"
#include "core/trace/tracetable.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto r = synctax::readKinetoTraceText(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    if (r.trace.has_value() == r.error.has_value())
        __builtin_trap(); // exactly one of the two
    if (r.error && r.error->message.empty())
        __builtin_trap(); // rejected without saying why
    if (r.trace) {
        const auto& t = *r.trace;
        if (!std::is_sorted(t.events.begin(), t.events.end(),
                [](const synctax::TraceEvent& a, const synctax::TraceEvent& b) { return a.startNs < b.startNs; }))
            __builtin_trap();
        for (const auto& e : t.events)
            if (e.name >= t.names.size() || e.lane >= t.lanes.size() || e.durationNs < 0)
                __builtin_trap();
        const synctax::TraceReport report = synctax::analyseTrace(t);
        if (report.steps.empty() || synctax::formatTraceReport(report).empty()
            || synctax::explainTrace(report).regime.empty())
            __builtin_trap(); // every readable trace has at least one window and words about it
        synctax::htaQueueLengthSummary(t);
        synctax::htaIdleTimeBreakdown(t);
        synctax::htaLaunchDelaysUs(t);
    }
    return 0;
}
