#pragma once

#include "core/probe/probefolder.h"
#include "core/trace/kinetotrace.h"
#include "core/trace/tracereport.h"
#include "core/trace/tracewhatif.h"
#include "ui/trace/timelinelanes.h"

#include <QMetaType>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// One trace file as the view shows it: the events, what the analysis said, and the timeline's lanes.
struct TraceFile {
    std::string path;
    KinetoTrace trace;
    TraceReport report;
    // Built by the load on its worker so that the window only shares it; when absent (a file built
    // by hand) the timeline builds it from `trace`.
    std::shared_ptr<const TimelineLanes> timeline;
    // The loop ready for the what-if (importedLoop with its default options), built on the worker
    // with the report so that the window only replays it; absent for a file built by hand.
    std::shared_ptr<const ImportedLoop> loop;
    // Where the file is a probe's run folder: what else it holds (the A/B measured in the loop);
    // its loop is then calibrated to the folder's phases and `path` is the folder.
    std::shared_ptr<const ProbeFolder> probe;
};

// The files of one load, in the order asked for (the ranks of one job, or one file).
using TraceFiles = std::vector<TraceFile>;
// Shared, never copied: a trace of two million events is 80 MB.
using TraceFilesPtr = std::shared_ptr<const TraceFiles>;

struct TraceLoadProgress {
    std::uint64_t bytesRead = 0; // of the file being read
    std::uint64_t bytes = 0; // its size
    double analysed = -1; // after the read: the share of the analysis done, 0..1; -1 while reading
};

// What loading one file gave: a file, or an error that names the file, or a cancel.
struct TraceLoadOutcome {
    std::optional<TraceFile> file;
    std::string error; // "FILE: byte 1234, event 17: expected ..."
    bool cancelled = false;
};

// Reads and analyses one file, reporting progress and polling `cancel`. Tests inject a fake.
using TraceLoadFunction = std::function<TraceLoadOutcome(const std::string& path,
    const std::function<void(const TraceLoadProgress&)>& progress, const std::atomic<bool>& cancel)>;

// The production load: readKinetoTrace, then analyseTrace, importedLoop and buildTimelineLanes (the
// analysis phase of the progress: 0..0.6 the analysis and the loop, 0.6..1 the lanes).
TraceLoadOutcome readAndAnalyseTrace(const std::string& path,
    const std::function<void(const TraceLoadProgress&)>& progress, const std::atomic<bool>& cancel);

// The same without the timeline's lanes, for a window that draws none (the Teach window, which
// replays the trace's launch sequence): the file's timeline is empty, the analysis all of that phase.
TraceLoadOutcome readAndAnalyseTraceWithoutLanes(const std::string& path,
    const std::function<void(const TraceLoadProgress&)>& progress, const std::atomic<bool>& cancel);

} // namespace synctax

Q_DECLARE_METATYPE(synctax::TraceFilesPtr)
