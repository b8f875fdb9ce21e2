#include "core/probe/traceopen.h"

#include "core/text/format.h"
#include "core/trace/traceanalysis.h"

#include <utility>

namespace synctax {

OpenTraceResult openTrace(const std::string& path, const OpenTraceOptions& options)
{
    OpenTraceResult result;
    auto stopped = [&] { return options.cancel && options.cancel->load(); };
    std::string tracePath = path;
    ImportedLoopOptions loopOptions = options.loop;
    bool probePhases = false; // the loop calibrated to the probe's phases, not to ones given
    if (std::string why = notARunFolder(path); !why.empty()) {
        result.error = std::move(why);
        return result;
    }
    if (isProbeFolder(path)) {
        ProbeFolderRead folder = readProbeFolder(path);
        if (!folder.folder) {
            result.error = formatErrors(folder.errors);
            while (!result.error.empty() && result.error.back() == '\n')
                result.error.pop_back();
            return result;
        }
        result.probe = std::make_shared<const ProbeFolder>(std::move(*folder.folder));
        // --ab defer measured deferring one line's syncs: the what-if replays the loop without them too.
        if (result.probe->defer && loopOptions.withoutLine.empty())
            loopOptions.withoutLine = result.probe->defer->site;
        if (!loopOptions.phasesMs && loopOptions.phasesSpreadMs.empty()) {
            loopOptions = phasesOptions(result.probe->phasesMs, loopOptions);
            probePhases = true;
        }
        if (result.probe->tracePath.empty()) {
            result.error = path + ": " + result.probe->notes.front();
            return result;
        }
        tracePath = result.probe->tracePath;
    }
    TraceReadOptions read;
    read.cancel = options.cancel;
    read.progress = options.reading;
    TraceReadResult done = readKinetoTrace(tracePath, read);
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
    opened.loop = importedLoop(*done.trace, opened.report, loopOptions);
    if (probePhases && opened.loop.available)
        opened.loop
            = queueFreeCalibrated(std::move(opened.loop), result.probe->phasesMs, result.probe->blockFirstStepsMs);
    opened.trace = std::move(*done.trace);
    result.opened = std::move(opened);
    return result;
}

ImportedLoop queueFreeCalibrated(ImportedLoop loop, const std::vector<std::array<double, 3>>& blockPhasesMs,
    const std::vector<std::vector<std::array<double, 3>>>& blockFirstStepsMs)
{
    const std::optional<QueueFreePhases> early
        = queueFreePhases(blockPhasesMs, blockFirstStepsMs, loop.base.ops.size(), loop.options.queueCapacity);
    if (!early)
        return loop;
    ImportedLoopOptions options = loop.options;
    options.phasesMs.reset();
    options.phasesSpreadMs.clear();
    options = phasesOptions(early->rows, options);
    const std::string steps = early->steps == 1 ? "first step" : "first " + std::to_string(early->steps) + " steps";
    options.phasesSource = "each block's " + steps + " after its drain, " + formatNumber("%.1f", early->hostMs)
        + " ms a step: over all its steps " + formatNumber("%.1f", early->blocksHostMs)
        + " ms, the later ones waiting for room in a full launch queue";
    return recalibrated(std::move(loop), options);
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
