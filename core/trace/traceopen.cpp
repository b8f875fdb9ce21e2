#include "core/trace/traceopen.h"

#include "core/trace/traceanalysis.h"

#include <utility>

namespace synctax {

OpenTraceResult openTrace(const std::string& path, const OpenTraceOptions& options)
{
    OpenTraceResult result;
    auto stopped = [&] { return options.cancel && options.cancel->load(); };
    TraceReadOptions read;
    read.cancel = options.cancel;
    read.progress = options.reading;
    TraceReadResult done = readKinetoTrace(path, read);
    if (done.cancelled || stopped()) {
        result.cancelled = true;
        return result;
    }
    if (done.error) {
        result.error = done.error->format();
        return result;
    }
    if (!done.trace) {
        result.error = path + ": the reader returned no trace";
        return result;
    }
    OpenedTrace opened;
    opened.path = path;
    opened.report = options.analysing ? analyseTrace(*done.trace, options.analysing) : analyseTrace(*done.trace);
    if (stopped()) {
        result.cancelled = true;
        return result;
    }
    opened.loop = importedLoop(*done.trace, opened.report, options.loop);
    opened.trace = std::move(*done.trace);
    result.opened = std::move(opened);
    return result;
}

ImportedLoopOptions phasesOptions(const std::vector<std::array<double, 3>>& timings, ImportedLoopOptions options)
{
    if (timings.size() == 1)
        options.phasesMs = timings.front();
    else if (!timings.empty())
        options.phasesSpreadMs = timings;
    return options;
}

} // namespace synctax
