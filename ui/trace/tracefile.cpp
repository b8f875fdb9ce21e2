#include "ui/trace/tracefile.h"

#include "core/analysis/traceanalysis.h"
#include "core/files/kinetoreader.h"

namespace synctax {

namespace {

TraceLoadOutcome readAndAnalyse(const std::string& path, const std::function<void(const TraceLoadProgress&)>& progress,
    const std::atomic<bool>& cancel, bool lanes)
{
    TraceReadOptions options;
    options.cancel = &cancel;
    if (progress)
        options.progress = [&progress](const TraceReadProgress& p) { progress({ p.fileBytesRead, p.fileBytes }); };
    TraceReadResult read = readKinetoTrace(path, options);
    TraceLoadOutcome outcome;
    if (read.cancelled || cancel.load()) {
        outcome.cancelled = true;
    } else if (read.error) {
        outcome.error = read.error->format();
    } else if (!read.trace) {
        outcome.error = path + ": the reader returned no trace";
    } else {
        auto analysing = [&progress](double done) {
            if (progress)
                progress({ 0, 0, done });
        };
        analysing(0);
        TraceFile file;
        file.path = path;
        const double analysisShare = lanes ? 0.6 : 1.0;
        file.report = analyseTrace(*read.trace, [&](double done) { analysing(analysisShare * done); });
        if (cancel.load()) {
            outcome.cancelled = true;
            return outcome;
        }
        file.loop = std::make_shared<const ImportedLoop>(importedLoop(*read.trace, file.report, {}));
        file.timeline = lanes ? std::make_shared<const TimelineLanes>(
                            buildTimelineLanes(*read.trace, [&](double done) { analysing(0.6 + 0.4 * done); }))
                              : std::make_shared<const TimelineLanes>();
        file.trace = std::move(*read.trace);
        outcome.file = std::move(file);
    }
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
