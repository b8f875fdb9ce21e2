#include "ui/trace/tracefile.h"

#include "core/probe/traceopen.h"

namespace synctax {

namespace {

TraceLoadOutcome readAndAnalyse(const std::string& path, const std::function<void(const TraceLoadProgress&)>& progress,
    const std::atomic<bool>& cancel, bool lanes)
{
    auto analysing = [&progress](double done) {
        if (progress)
            progress({ 0, 0, done });
    };
    const double analysisShare = lanes ? 0.6 : 1.0;
    OpenTraceOptions options;
    options.cancel = &cancel;
    if (progress)
        options.reading = [&progress](const TraceReadProgress& p) { progress({ p.fileBytesRead, p.fileBytes }); };
    options.analysing = [&](double done) { analysing(analysisShare * done); };
    OpenTraceResult opened = openTrace(path, options);
    TraceLoadOutcome outcome;
    if (opened.cancelled || cancel.load()) {
        outcome.cancelled = true;
        return outcome;
    }
    if (!opened.opened) {
        outcome.error = opened.error;
        return outcome;
    }
    OpenedTrace& o = *opened.opened;
    TraceFile file;
    file.path = path;
    file.report = std::move(o.report);
    file.loop = std::make_shared<const ImportedLoop>(std::move(o.loop));
    file.probe = std::move(opened.probe); // a probe's run folder: the A/B it measured
    file.timeline = lanes ? std::make_shared<const TimelineLanes>(
                        buildTimelineLanes(o.trace, [&](double done) { analysing(0.6 + 0.4 * done); }))
                          : std::make_shared<const TimelineLanes>();
    file.trace = std::move(o.trace);
    outcome.file = std::move(file);
    return outcome;
}

} // namespace

TraceLoadOutcome readAndAnalyseTrace(const std::string& path,
    const std::function<void(const TraceLoadProgress&)>& progress, const std::atomic<bool>& cancel)
{
    return readAndAnalyse(path, progress, cancel, true);
}

TraceLoadOutcome readAndAnalyseTraceWithoutLanes(const std::string& path,
    const std::function<void(const TraceLoadProgress&)>& progress, const std::atomic<bool>& cancel)
{
    return readAndAnalyse(path, progress, cancel, false);
}

} // namespace synctax
