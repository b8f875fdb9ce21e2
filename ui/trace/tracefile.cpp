#include "ui/trace/tracefile.h"

#include "core/trace/traceopen.h"

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
    // A probe's run folder: its capture, calibrated to the phases its blocks timed unprofiled.
    std::shared_ptr<const ProbeFolder> probe;
    std::string tracePath = path;
    if (isProbeFolder(path)) {
        ProbeFolderRead read = readProbeFolder(path);
        TraceLoadOutcome outcome;
        if (!read.folder) {
            outcome.error = formatErrors(read.errors);
            return outcome;
        }
        if (read.folder->tracePath.empty()) {
            outcome.error = path + ": " + (read.folder->notes.empty() ? "no capture" : read.folder->notes.front());
            return outcome;
        }
        tracePath = read.folder->tracePath;
        options.loop = phasesOptions(read.folder->phasesMs);
        probe = std::make_shared<const ProbeFolder>(std::move(*read.folder));
    }
    options.cancel = &cancel;
    if (progress)
        options.reading = [&progress](const TraceReadProgress& p) { progress({ p.fileBytesRead, p.fileBytes }); };
    options.analysing = [&](double done) { analysing(analysisShare * done); };
    OpenTraceResult opened = openTrace(tracePath, options);
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
    file.probe = std::move(probe);
    file.timeline = lanes
        ? std::make_shared<const TimelineLanes>(buildTimelineLanes(o.trace, [&](double done) { analysing(0.6 + 0.4 * done); }))
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
