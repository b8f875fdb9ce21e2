#include "core/trace/tracesequences.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

namespace synctax {

namespace {

double usBetween(std::int64_t fromNs, std::int64_t toNs) { return double(toNs - fromNs) * 1e-3; }

// The first of the trace's events (sorted by start) that starts at or after ns.
std::vector<TraceEvent>::const_iterator firstEventFrom(const KinetoTrace& trace, std::int64_t ns)
{
    return std::lower_bound(trace.events.begin(), trace.events.end(), ns,
        [](const TraceEvent& e, std::int64_t at) { return e.startNs < at; });
}

} // namespace

std::vector<StepSequence> launchSequences(const KinetoTrace& trace, const TraceReport& report)
{
    return launchSequences(trace, report, joinLaunches(trace));
}

std::vector<StepSequence> launchSequences(const KinetoTrace& trace, const TraceReport& report, const TraceJoin& join)
{
    std::vector<StepSequence> sequences(report.steps.size());
    for (size_t i = 0; i < report.steps.size(); ++i) {
        const TraceStep& step = report.steps[i];
        StepSequence& seq = sequences[i];
        seq.stepHostUs = usBetween(step.startNs, step.endNs);
        // The same launches the report counts as the step's K: those starting inside it.
        auto it = std::lower_bound(join.launches.begin(), join.launches.end(), step.startNs,
            [&](std::int32_t l, std::int64_t ns) { return trace.events[size_t(l)].startNs < ns; });
        for (; it != join.launches.end() && trace.events[size_t(*it)].startNs < step.endNs; ++it) {
            const TraceEvent* gpu = join.gpuOf(trace, *it);
            if (!gpu)
                continue;
            const TraceEvent& launch = trace.events[size_t(*it)];
            seq.ops.push_back({ usBetween(step.startNs, launch.startNs), double(launch.durationNs) * 1e-3,
                double(gpu->durationNs) * 1e-3, trace.lanes[gpu->lane].tid });
        }
    }
    for (size_t i = 0; i < report.steps.size(); ++i) {
        const TraceStep& step = report.steps[i];
        auto it = firstEventFrom(trace, step.startNs);
        // The loop's own thread: the one of the step's marker.
        std::int64_t loopTid = -1;
        for (auto marker = it; marker != trace.events.end() && marker->startNs <= step.startNs; ++marker) {
            if (marker->kind == TraceEventKind::Step)
                loopTid = trace.lanes[marker->lane].tid;
        }
        for (; it != trace.events.end() && it->startNs < step.endNs; ++it) {
            if (isGpuKind(it->kind) || it->kind == TraceEventKind::Step)
                continue;
            sequences[i].hostEventUs.push_back(usBetween(step.startNs, it->startNs));
            sequences[i].hostEventOffLoop.push_back(loopTid >= 0 && trace.lanes[it->lane].tid != loopTid ? 1 : 0);
        }
    }
    for (const TraceSync& sync : report.syncs) {
        if (sync.step < 0 || size_t(sync.step) >= sequences.size())
            continue;
        const std::int64_t stepStart = report.steps[size_t(sync.step)].startNs;
        sequences[size_t(sync.step)].syncAtUs.push_back(usBetween(stepStart, sync.startNs));
        sequences[size_t(sync.step)].syncEndUs.push_back(usBetween(stepStart, sync.endNs));
    }
    // Syncs of several host threads may come out of start order; the replay takes them in order.
    for (StepSequence& seq : sequences) {
        std::vector<std::pair<double, double>> syncs;
        for (size_t i = 0; i < seq.syncAtUs.size(); ++i)
            syncs.emplace_back(seq.syncAtUs[i], seq.syncEndUs[i]);
        std::sort(syncs.begin(), syncs.end());
        for (size_t i = 0; i < syncs.size(); ++i)
            std::tie(seq.syncAtUs[i], seq.syncEndUs[i]) = syncs[i];
    }
    return sequences;
}

std::optional<double> queuedGpuGapUs(const KinetoTrace& trace, const TraceJoin& join)
{
    constexpr std::int64_t queuedByNs = 5000;
    constexpr size_t fewestPairs = 20;
    // Per stream, its ops in start order with their launches' ends.
    std::map<std::int64_t, std::vector<std::pair<const TraceEvent*, std::int64_t>>> streams;
    for (const std::int32_t l : join.launches) {
        if (const TraceEvent* gpu = join.gpuOf(trace, l)) {
            const TraceEvent& launch = trace.events[size_t(l)];
            streams[trace.lanes[gpu->lane].tid].emplace_back(gpu, launch.startNs + launch.durationNs);
        }
    }
    std::vector<double> gaps;
    for (auto& [stream, ops] : streams) {
        std::sort(
            ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.first->startNs < b.first->startNs; });
        for (size_t i = 1; i < ops.size(); ++i) {
            const std::int64_t previousEnd = ops[i - 1].first->startNs + ops[i - 1].first->durationNs;
            if (ops[i].second <= previousEnd - queuedByNs)
                gaps.push_back(usBetween(previousEnd, ops[i].first->startNs));
        }
    }
    if (gaps.size() < fewestPairs)
        return std::nullopt;
    const auto mid = gaps.begin() + long(gaps.size() / 2);
    std::nth_element(gaps.begin(), mid, gaps.end());
    return *mid;
}

std::vector<LoopPhaseBounds> loopPhaseBounds(const KinetoTrace& trace, const TraceReport& report)
{
    const auto startsWith = [](const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; };
    const auto isBackwardFrame = [](const std::string& s) {
        return s.find("torch/_tensor.py(") != std::string::npos && s.size() > 10
            && s.compare(s.size() - 10, 10, ": backward") == 0;
    };
    std::vector<LoopPhaseBounds> bounds(report.steps.size());
    for (size_t i = 0; i < report.steps.size(); ++i) {
        const TraceStep& step = report.steps[i];
        LoopPhaseBounds& b = bounds[i];
        auto it = firstEventFrom(trace, step.startNs);
        for (; it != trace.events.end() && it->startNs < step.endNs; ++it) {
            const std::string& name = trace.names[it->name];
            const double at = usBetween(step.startNs, it->startNs);
            const bool backward = (it->kind == TraceEventKind::PythonFunction && isBackwardFrame(name))
                || (it->kind == TraceEventKind::CpuOp && startsWith(name, "autograd::engine::evaluate_function"));
            if (backward && !b.backwardUs)
                b.backwardUs = at;
            if (it->kind == TraceEventKind::Annotation && !trace.lanes[it->lane].gpu
                && startsWith(name, "Optimizer.step#")) {
                if (!b.optimizerUs)
                    b.optimizerUs = at;
                b.optimizerEndUs = std::max(b.optimizerEndUs.value_or(0.0), usBetween(step.startNs, it->endNs()));
            }
        }
    }
    return bounds;
}

} // namespace synctax
