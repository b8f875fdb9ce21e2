#include "core/trace/tracefinisher.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_set>

namespace synctax {

namespace {

std::string joined(const std::set<std::int64_t>& values)
{
    std::string text;
    for (const std::int64_t v : values)
        text += (text.empty() ? "" : ", ") + std::to_string(v);
    return text;
}

void note(KinetoTrace& trace, std::uint64_t count, const std::string& what)
{
    if (count > 0)
        trace.notes.push_back(what + ": " + std::to_string(count)); // "N things" would need a plural
}

bool isLaunched(TraceEventKind kind)
{
    return kind == TraceEventKind::Kernel || kind == TraceEventKind::Memcpy || kind == TraceEventKind::Memset;
}

// The pairs of launches and the GPU work they queued, matched by correlation id: either side alone
// is read as it is (the profiler's window can cut a pair) and said in a note.
void noteUnmatched(KinetoTrace& trace)
{
    std::unordered_set<std::int64_t> launches, launched;
    std::uint64_t withoutCorrelation = 0;
    for (const TraceEvent& e : trace.events) {
        if (e.kind == TraceEventKind::Launch || isLaunched(e.kind)) {
            if (e.correlation < 0)
                ++withoutCorrelation;
            else
                (e.kind == TraceEventKind::Launch ? launches : launched).insert(e.correlation);
        }
    }
    std::uint64_t gpuAlone = 0, launchAlone = 0;
    for (const TraceEvent& e : trace.events) {
        if (e.correlation < 0)
            continue;
        if (isLaunched(e.kind) && launches.count(e.correlation) == 0)
            ++gpuAlone;
        else if (e.kind == TraceEventKind::Launch && launched.count(e.correlation) == 0)
            ++launchAlone;
    }
    note(trace, gpuAlone, gpuWithoutLaunchNote);
    note(trace, launchAlone, launchWithoutGpuNote);
    note(trace, withoutCorrelation, "launches or GPU events without args.correlation");
}

void noteCounts(KinetoTrace& trace, const KinetoReadCounts& counts)
{
    if (counts.traceEventsKeys > 1)
        trace.notes.push_back(
            "traceEvents appears " + std::to_string(counts.traceEventsKeys) + " times: the events of all are read");
    if (counts.distributedInfoKeys > 1)
        trace.notes.push_back(
            "distributedInfo appears " + std::to_string(counts.distributedInfoKeys) + " times: the last one is kept");
    note(trace, counts.gpuWithoutStream, "GPU events without args.stream, skipped (no stream to place them on)");
    note(trace, counts.gpuDeviceFromPid, "GPU events without args.device, placed on the device of their pid");
    note(trace, counts.hostWithoutIds, "host events without a numeric pid and tid, skipped");
    note(trace, counts.notFiniteElsewhere, "NaN or Infinity outside ts and dur (not read)");
    note(trace, counts.ignoredMetadata, "top-level metadata values of an unexpected type ignored");
}

void noteShape(KinetoTrace& trace)
{
    if (trace.eventsInFile == 0) {
        trace.notes.push_back("traceEvents is empty: the trace holds no events");
        return;
    }
    std::set<std::int64_t> devices, processes;
    for (const TraceLane& lane : trace.lanes)
        (lane.gpu ? devices : processes).insert(lane.pid);
    if (devices.empty())
        trace.notes.push_back(noGpuEventsNote);
    if (devices.size() > 1)
        trace.notes.push_back("GPU work on " + std::to_string(devices.size()) + " devices (" + joined(devices) + ")");
    if (processes.size() > 1)
        trace.notes.push_back(
            "host events from " + std::to_string(processes.size()) + " processes (pids " + joined(processes) + ")");
    if (trace.info.legacyCategories)
        trace.notes.push_back("2021 category names (Operator, Runtime, Kernel, Memcpy, Memset) read as today's");
}

} // namespace

std::optional<std::string> finishTrace(KinetoTrace& trace, const KinetoReadCounts& counts,
    const std::map<std::pair<std::int64_t, std::int64_t>, std::string>& threadNames)
{
    if (trace.info.baseTimeNs) {
        const std::int64_t base = *trace.info.baseTimeNs;
        for (TraceEvent& e : trace.events) {
            std::int64_t start = 0, end = 0;
            if (__builtin_add_overflow(e.startNs, base, &start) || __builtin_add_overflow(start, e.durationNs, &end))
                return "expected baseTimeNanoseconds + ts + dur to fit in int64 nanoseconds";
            e.startNs = start;
        }
        if (trace.info.lastGpuStepStartNs)
            *trace.info.lastGpuStepStartNs += base;
    }
    // In place (std::stable_sort would take a buffer of up to all the events); ties in start and
    // duration keep the file's order, as a stable sort would.
    std::sort(trace.events.begin(), trace.events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        return std::tie(a.startNs, b.durationNs, a.fileIndex) < std::tie(b.startNs, a.durationNs, b.fileIndex);
    });
    for (TraceLane& lane : trace.lanes) {
        if (lane.gpu) {
            lane.label = "GPU " + std::to_string(lane.pid) + " stream " + std::to_string(lane.tid);
        } else {
            const auto named = threadNames.find({ lane.pid, lane.tid });
            lane.label = named != threadNames.end() ? named->second : "thread " + std::to_string(lane.tid);
        }
    }
    noteShape(trace);
    noteCounts(trace, counts);
    noteUnmatched(trace);
    return std::nullopt;
}

} // namespace synctax
