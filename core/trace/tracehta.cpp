#include "core/trace/tracehta.h"

#include "core/statistics/numpysort.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace synctax {

namespace {

bool isHtaKernel(TraceEventKind kind)
{
    return kind == TraceEventKind::Kernel || kind == TraceEventKind::Memcpy || kind == TraceEventKind::Memset;
}

// The double Python's json gives for the trace's text of `ns` nanoseconds in µs (3 fraction digits).
double microsAsParsed(std::int64_t ns)
{
    const std::uint64_t magnitude = ns < 0 ? 0 - std::uint64_t(ns) : std::uint64_t(ns);
    char text[48];
    std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", magnitude / 1000, magnitude % 1000);
    return std::strtod(text, nullptr);
}

// The trace as HTA's analyses see it: each event's times, and which events survive HTA's filter.
struct HtaView {
    std::vector<HtaTimes> times; // per event
    std::vector<bool> kept; // per event
    std::unordered_map<std::int64_t, std::int32_t> hostOfCorrelation; // the host call of a correlation
    std::unordered_map<std::int64_t, std::int32_t> gpuOfCorrelation; // its first GPU op, in file order
};

HtaTimes htaTimes(std::int64_t rawStartNs, std::int64_t durationNs, bool rounded)
{
    if (!rounded) {
        // Whole µs (pandas int64) plus the parsed dur: double(ns) alone would lose the µs past 2^53 ns.
        const std::int64_t wholeMicros = rawStartNs / 1000; // truncated on purpose, as HTA's int64 ts
        const double start = double(wholeMicros);
        return { start, start + microsAsParsed(durationNs) };
    }
    const double start = microsAsParsed(rawStartNs);
    return { std::ceil(start), std::floor(start + microsAsParsed(durationNs)) };
}

HtaView htaView(const KinetoTrace& trace)
{
    HtaView v;
    const std::int64_t base = trace.info.baseTimeNs.value_or(0);
    const size_t n = trace.events.size();
    // HTA rounds only when pandas holds ts as floats: when some ts has a fraction.
    const bool rounded = std::any_of(
        trace.events.begin(), trace.events.end(), [&](const TraceEvent& e) { return (e.startNs - base) % 1000 != 0; });
    v.times.resize(n);
    std::set<std::uint32_t> stepNames;
    double lastStepUs = -INFINITY;
    for (size_t i = 0; i < n; ++i) {
        const TraceEvent& e = trace.events[i];
        v.times[i] = htaTimes(e.startNs - base, e.durationNs, rounded);
        if (e.kind == TraceEventKind::Step) {
            stepNames.insert(e.name);
            lastStepUs = std::max(lastStepUs, v.times[i].startUs);
        }
    }
    if (trace.info.lastGpuStepStartNs)
        lastStepUs = std::max(lastStepUs, htaTimes(*trace.info.lastGpuStepStartNs - base, 0, rounded).startUs);
    // HTA drops the last step (it may be cut short) once there are two: host events from its start,
    // and the GPU ops whose correlation none of the remaining host events has.
    const bool filter = stepNames.size() >= 2;
    std::unordered_set<std::int64_t> keptCorrelations;
    v.kept.assign(n, true);
    for (size_t i = 0; i < n; ++i) {
        const TraceEvent& e = trace.events[i];
        const bool gpu = isGpuKind(e.kind) && e.correlation >= 0;
        if (filter && !gpu)
            v.kept[i] = v.times[i].startUs < lastStepUs;
        if (!gpu && v.kept[i] && e.correlation >= 0)
            keptCorrelations.insert(e.correlation);
    }
    std::vector<std::int32_t> byFile(n);
    for (size_t i = 0; i < n; ++i)
        byFile[i] = std::int32_t(i);
    std::sort(byFile.begin(), byFile.end(), [&](std::int32_t a, std::int32_t b) {
        return trace.events[size_t(a)].fileIndex < trace.events[size_t(b)].fileIndex;
    });
    for (std::int32_t i : byFile) {
        const TraceEvent& e = trace.events[size_t(i)];
        const bool gpu = isGpuKind(e.kind) && e.correlation >= 0;
        if (gpu && filter)
            v.kept[size_t(i)] = keptCorrelations.count(e.correlation) > 0;
        if (e.correlation < 0)
            continue;
        if (gpu)
            v.gpuOfCorrelation.emplace(e.correlation, i);
        else
            v.hostOfCorrelation.emplace(e.correlation, i);
    }
    return v;
}

// Event indices that pass `pick`, in traceEvents order: HTA's row order.
template <typename Pick> std::vector<std::int32_t> inFileOrder(const KinetoTrace& trace, const HtaView& v, Pick pick)
{
    std::vector<std::int32_t> picked;
    for (size_t i = 0; i < trace.events.size(); ++i)
        if (v.kept[i] && pick(trace.events[i]))
            picked.push_back(std::int32_t(i));
    std::sort(picked.begin(), picked.end(), [&](std::int32_t a, std::int32_t b) {
        return trace.events[size_t(a)].fileIndex < trace.events[size_t(b)].fileIndex;
    });
    return picked;
}

bool isNamed(const KinetoTrace& trace, const TraceEvent& e, std::initializer_list<const char*> names)
{
    const std::string& name = trace.names[e.name];
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

} // namespace

std::vector<HtaQueueSummary> htaQueueLengthSummary(const KinetoTrace& trace)
{
    const HtaView v = htaView(trace);
    const auto launches = inFileOrder(trace, v, [&](const TraceEvent& e) {
        return !isGpuKind(e.kind) && e.correlation >= 0 && v.gpuOfCorrelation.count(e.correlation)
            && isNamed(trace, e,
                { "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "cudaMemcpyAsync",
                    "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync",
                    "hipMemcpyAsync", "hipMemcpyWithStream" });
    });
    std::unordered_set<std::int64_t> launched;
    for (std::int32_t l : launches)
        launched.insert(trace.events[size_t(l)].correlation);
    const auto gpuOps = inFileOrder(
        trace, v, [&](const TraceEvent& e) { return isGpuKind(e.kind) && launched.count(e.correlation) > 0; });
    // pd.concat([launches, GPU ops]).sort_values("ts"), then a cumulative sum per stream.
    struct Row {
        double ts;
        std::int64_t stream;
        int change;
    };
    std::vector<Row> rows;
    for (std::int32_t l : launches) {
        const std::int32_t g = v.gpuOfCorrelation.at(trace.events[size_t(l)].correlation);
        if (v.kept[size_t(g)])
            rows.push_back({ v.times[size_t(l)].startUs, trace.lanes[trace.events[size_t(g)].lane].tid, +1 });
    }
    for (std::int32_t g : gpuOps)
        rows.push_back({ v.times[size_t(g)].startUs, trace.lanes[trace.events[size_t(g)].lane].tid, -1 });
    std::vector<double> keys(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        keys[i] = rows[i].ts;
    struct Series {
        int depth = 0;
        double sum = 0;
        HtaQueueSummary summary;
    };
    std::map<std::int64_t, Series> streams;
    for (std::size_t i : numpyQuicksortOrder(keys)) {
        Series& s = streams[rows[i].stream];
        s.depth += rows[i].change;
        s.sum += s.depth;
        s.summary.max = s.summary.count == 0 ? s.depth : std::max(s.summary.max, s.depth);
        ++s.summary.count;
    }
    std::vector<HtaQueueSummary> out;
    for (auto& [stream, s] : streams) {
        s.summary.stream = stream;
        s.summary.mean = s.sum / s.summary.count;
        out.push_back(s.summary);
    }
    return out;
}

std::vector<HtaIdleBreakdown> htaIdleTimeBreakdown(const KinetoTrace& trace)
{
    const HtaView v = htaView(trace);
    std::map<std::int64_t, std::vector<std::int32_t>> perStream;
    for (std::int32_t g : inFileOrder(trace, v, [](const TraceEvent& e) { return isHtaKernel(e.kind); }))
        perStream[trace.lanes[trace.events[size_t(g)].lane].tid].push_back(g);
    std::vector<HtaIdleBreakdown> out;
    for (const auto& [stream, ops] : perStream) {
        HtaIdleBreakdown b;
        b.stream = stream;
        std::vector<double> keys;
        for (std::int32_t g : ops)
            keys.push_back(v.times[size_t(g)].startUs);
        double prevEnd = NAN;
        for (std::size_t i : numpyQuicksortOrder(keys)) {
            const TraceEvent& e = trace.events[size_t(ops[i])];
            const HtaTimes& t = v.times[size_t(ops[i])];
            if (!std::isnan(prevEnd)) {
                const double gap = t.startUs - prevEnd;
                const auto host
                    = e.correlation >= 0 ? v.hostOfCorrelation.find(e.correlation) : v.hostOfCorrelation.end();
                if (host != v.hostOfCorrelation.end() && v.times[size_t(host->second)].startUs > prevEnd)
                    b.hostWaitUs += gap;
                else if (gap < htaConsecutiveKernelDelayUs)
                    b.kernelWaitUs += gap;
                else
                    b.otherUs += gap;
            }
            prevEnd = t.endUs;
        }
        out.push_back(b);
    }
    return out;
}

std::vector<double> htaLaunchDelaysUs(const KinetoTrace& trace)
{
    const HtaView v = htaView(trace);
    const auto launches = inFileOrder(trace, v, [&](const TraceEvent& e) {
        return !isGpuKind(e.kind) && e.correlation >= 0
            && isNamed(trace, e, { "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpyAsync", "cudaMemsetAsync" });
    });
    std::unordered_map<std::int64_t, std::int32_t> launchOf;
    for (std::int32_t l : launches)
        launchOf.emplace(trace.events[size_t(l)].correlation, l);
    std::vector<double> delays;
    for (std::int32_t g : inFileOrder(trace, v, [](const TraceEvent& e) { return isGpuKind(e.kind); })) {
        const auto l = launchOf.find(trace.events[size_t(g)].correlation);
        if (l != launchOf.end())
            delays.push_back(std::max(0.0, v.times[size_t(g)].startUs - v.times[size_t(l->second)].endUs));
    }
    return delays;
}

} // namespace synctax
