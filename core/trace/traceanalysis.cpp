#include "core/trace/traceanalysis.h"

#include "core/analysis/explanation.h"
#include "core/queuemodel/regime.h"
#include "core/text/format.h"
#include "core/trace/tracebubble.h"
#include "core/trace/traceexplanation.h"
#include "core/trace/tracefinisher.h"
#include "core/trace/tracejoin.h"
#include "core/trace/tracequeue.h"
#include "core/trace/tracesteps.h"
#include "core/trace/tracesyncs.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace synctax {

namespace {

TraceSourceInfo sourceOf(const KinetoTrace& trace)
{
    TraceSourceInfo s;
    s.file = trace.info.file;
    s.torchVersion = trace.info.torchVersion;
    if (const auto v = trace.info.cudaRuntimeVersion) // 13000 is 13.0, 12040 is 12.4
        s.cudaVersion = std::to_string(*v / 1000) + "." + std::to_string(*v % 1000 / 10);
    // The device that ran the trace's GPU work, else the first the trace describes.
    std::int64_t device = 0;
    for (const auto& lane : trace.lanes) {
        if (lane.gpu) {
            device = lane.pid;
            break;
        }
    }
    if (device >= 0 && size_t(device) < trace.info.devices.size())
        s.device = trace.info.devices[size_t(device)];
    else if (!trace.info.devices.empty())
        s.device = trace.info.devices.front();
    s.rank = trace.info.rank;
    s.worldSize = trace.info.worldSize;
    return s;
}

// The step that holds `ns`, or -1; steps are in start order.
int stepAt(const std::vector<TraceStep>& steps, std::int64_t ns)
{
    const auto it = std::upper_bound(
        steps.begin(), steps.end(), ns, [](std::int64_t t, const TraceStep& s) { return t < s.startNs; });
    if (it == steps.begin())
        return -1;
    const auto& s = *std::prev(it);
    return ns < s.endNs ? int(std::prev(it) - steps.begin()) : -1;
}

// Syncs placed in their steps and grouped by site (op + Python line); a sync outside every step
// keeps site -1 and is said in the notes.
void placeSyncs(TraceReport& report, std::vector<FoundSync>& found, std::optional<std::uint32_t> stepLane)
{
    std::map<std::pair<std::string, std::optional<std::string>>, int> siteOf;
    int outside = 0;
    int otherThread = 0;
    for (FoundSync& f : found)
        f.sync.step = stepAt(report.steps, f.sync.startNs);
    const int cut = countBubblesOnce(found, report.steps);
    for (FoundSync& f : found) {
        TraceSync& s = f.sync;
        if (s.step < 0) {
            ++outside;
            report.syncs.push_back(s);
            continue;
        }
        TraceStep& step = report.steps[size_t(s.step)];
        if (stepLane && s.hostLane != *stepLane)
            ++otherThread;
        ++step.syncs;
        step.syncWaitMs += s.waitMs;
        step.syncBubbleMs += s.bubbleMs;
        const auto key = std::make_pair(f.op, f.python);
        auto it = siteOf.find(key);
        if (it == siteOf.end()) {
            it = siteOf.emplace(key, int(report.sites.size())).first;
            TraceSyncSite site;
            site.op = f.op;
            site.python = f.python;
            report.sites.push_back(site);
        }
        TraceSyncSite& site = report.sites[size_t(it->second)];
        ++site.count;
        site.waitMs += s.waitMs;
        site.bubbleMs += s.bubbleMs;
        s.site = it->second;
        report.syncs.push_back(s);
    }
    const double n = double(report.steps.size());
    for (auto& site : report.sites) {
        site.perStep = site.count / n;
        site.waitMs /= n;
        site.bubbleMs /= n;
        site.sharePct = report.meanStepMs > 0 ? 100.0 * site.bubbleMs / report.meanStepMs : 0;
    }
    // Most bubble per step first; the syncs' site indices follow the new order.
    std::vector<int> order(report.sites.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto& x = report.sites[size_t(a)];
        const auto& y = report.sites[size_t(b)];
        return std::make_tuple(-x.bubbleMs, -x.count, x.op) < std::make_tuple(-y.bubbleMs, -y.count, y.op);
    });
    std::vector<int> newIndex(order.size());
    std::vector<TraceSyncSite> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
        newIndex[size_t(order[i])] = int(i);
        sorted.push_back(report.sites[size_t(order[i])]);
    }
    report.sites = std::move(sorted);
    for (auto& s : report.syncs) {
        if (s.site >= 0)
            s.site = newIndex[size_t(s.site)];
    }
    if (otherThread > 0) {
        report.notes.push_back(std::to_string(otherThread)
            + " sync(s) in steps on another thread than the steps' (a DDP communication thread, a data loader "
              "thread?): their bubbles can be waits for other work, such as other ranks");
    }
    if (outside > 0) {
        report.notes.push_back(std::to_string(outside)
            + " sync(s) outside every step (the profiler's own "
              "cudaDeviceSynchronize at its end is one), not counted");
    }
    if (cut > 0) {
        report.notes.push_back(std::to_string(cut)
            + " sync bubble(s) longer than what was left of their step (the GPU idle across a gap in the "
              "recording?): each step's bubble is held to its own time");
    }
}

// What the trace holds that cannot happen, in words.
std::vector<std::string> impossibleIn(const TraceJoin& join)
{
    const std::string nothingTold = "; no lag, bubble, tax, regime or what-if is told from it";
    std::vector<std::string> said;
    if (join.launchesSharingCorrelation > 0) {
        said.push_back(std::to_string(join.launchesSharingCorrelation)
            + " launch calls share their correlation id with another launch call (the profiler gives each call "
              "its own): GPU ops cannot be matched to their launches"
            + nothingTold);
    }
    if (join.gpuBeforeLaunch > 0) {
        said.push_back(std::to_string(join.gpuBeforeLaunch) + " of " + std::to_string(join.joinedLaunches)
            + " GPU ops start before the launch call that queued them, up to "
            + formatMs(nsToMs(join.gpuBeforeLaunchMostNs))
            + " ms before: a GPU op cannot start before it is launched, so the trace's times run backwards, were "
              "shifted, or its host and GPU clocks disagree"
            + nothingTold);
    }
    return said;
}

TraceRegime regimeOf(const TraceReport& report, bool anyEvents)
{
    TraceRegime r;
    double syncs = 0;
    for (const auto& s : report.steps) {
        r.dMs += s.dispatchMs;
        r.gMs += s.gpuBusyMs;
        r.hMs += std::max(0.0, s.stepMs - s.dispatchMs - s.syncWaitMs);
        syncs += s.syncs;
    }
    const double n = double(report.steps.size());
    r.dMs /= n;
    r.gMs /= n;
    r.hMs /= n;
    r.syncsPerStep = syncs / n;
    if (!report.impossible.empty()) {
        r.sentence = "The trace holds events that cannot happen (its first note says which): no regime is told "
                     "from it.";
        return r;
    }
    if (!anyEvents) {
        r.sentence = "The trace holds no events: there is nothing to explain.";
        return r;
    }
    if (r.gMs > 0)
        r.label = classifyRegime(r.dMs, r.gMs, r.hMs * 1e3);
    r.sentence = explainTraceRegime(r, report.taxPct);
    return r;
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool readerSaid(const KinetoTrace& trace, const char* note)
{
    return std::any_of(
        trace.notes.begin(), trace.notes.end(), [&](const std::string& n) { return startsWith(n, note); });
}

void addNotes(const KinetoTrace& trace, const TraceJoin& join, TraceReport& report)
{
    auto& notes = report.notes;
    if (trace.events.empty()) {
        // Nothing was analysed: what the reader found in the file is all there is to say.
        notes.insert(notes.end(), trace.notes.begin(), trace.notes.end());
        if (notes.empty())
            notes.push_back("the trace holds no events");
        return;
    }
    if (!report.stepsMarked) {
        notes.insert(notes.begin(),
            "no ProfilerStep#N annotations (recorded without a schedule): one window for the whole trace");
    }
    // Where the reader said it already, in its words, it is not said again.
    if (join.gpuWork.empty() && !readerSaid(trace, noGpuEventsNote))
        notes.push_back("no GPU events (recorded without ProfilerActivity.CUDA?): no GPU busy time, queue or bubble");
    const bool frames = std::any_of(trace.events.begin(), trace.events.end(),
        [](const TraceEvent& e) { return e.kind == TraceEventKind::PythonFunction; });
    if (!frames && trace.info.withStack)
        notes.push_back("recorded with_stack=True, but the trace holds no Python frames (the legacy profiler of a "
                        "torch without Kineto records none): sites named by op only");
    else if (!frames)
        notes.push_back("recorded without with_stack=True: sites named by op only");
    // Measured on an H200 (tests/data/traces/torch-2.11-h200/measurements/paired.json): ResNet-50's profiled
    // steps took 46.5 ms against 33.8 ms unprofiled, and .item() cost +13.8% unprofiled but 1.9% of
    // the profiled step. What a trace shows is the profiled loop; say so wherever the host is timed.
    if (!join.launches.empty() && !report.regime.label.empty()) {
        notes.push_back(std::string("host times include the profiler's own cost per recorded call")
            + (frames ? " (with_stack=True records every Python call)" : "")
            + ": the host ran slower than unprofiled, so this regime and tax are the profiled loop's");
    }
    if (join.launchesWithoutGpu > 0 && !readerSaid(trace, launchWithoutGpuNote)) {
        notes.push_back(std::to_string(join.launchesWithoutGpu)
            + " launch(es) without a GPU op of the same correlation (cut off by the trace's end?)");
    }
    if (join.gpuWithoutLaunch > 0 && !readerSaid(trace, gpuWithoutLaunchNote)) {
        notes.push_back(
            std::to_string(join.gpuWithoutLaunch) + " GPU op(s) without a launch call of the same correlation");
    }
    for (const std::string& n : trace.notes) {
        if (std::find(notes.begin(), notes.end(), n) == notes.end())
            notes.push_back(n);
    }
    notes.insert(notes.begin(), report.impossible.begin(), report.impossible.end()); // said first
}

} // namespace

// The steps are measured first (D, G, K, queue, lag, idle time), then the syncs are found on the
// host threads, placed in their steps and grouped by site; the regime reads the step means.
TraceReport analyseTrace(const KinetoTrace& trace) { return analyseTrace(trace, {}); }

TraceReport analyseTrace(const KinetoTrace& trace, const std::function<void(double)>& progress)
{
    constexpr int passes = 8;
    int done = 0;
    auto passed = [&] {
        if (progress)
            progress(double(++done) / passes);
    };
    TraceReport report;
    report.source = sourceOf(trace);
    const TraceJoin join = joinLaunches(trace);
    passed();
    report.steps = stepWindows(trace);
    report.stepsMarked = !report.steps.empty();
    if (!report.stepsMarked)
        report.steps.push_back(wholeTraceWindow(trace));
    passed();
    report.queues = streamQueues(trace, join);
    passed();
    report.lag = launchLag(trace, join);
    passed();
    measureSteps(trace, join, report.queues, report.steps);
    passed();
    breakDownIdleTime(trace, join, report.steps);
    passed();

    double totalMs = 0;
    for (const auto& s : report.steps)
        totalMs += s.stepMs;
    report.meanStepMs = totalMs / double(report.steps.size());
    std::optional<std::uint32_t> stepLane;
    for (const auto& e : trace.events) {
        if (e.kind == TraceEventKind::Step) {
            stepLane = e.lane;
            break;
        }
    }
    std::vector<FoundSync> found = findSyncs(trace, join);
    placeSyncs(report, found, stepLane);
    passed();
    double bubbleMs = 0;
    for (auto& s : report.steps) {
        s.taxPct = s.stepMs > 0 ? 100.0 * s.syncBubbleMs / s.stepMs : 0;
        bubbleMs += s.syncBubbleMs;
    }
    report.taxPct = totalMs > 0 ? 100.0 * bubbleMs / totalMs : 0;
    report.impossible = impossibleIn(join);
    report.regime = regimeOf(report, !trace.events.empty());
    addNotes(trace, join, report);
    passed();
    return report;
}

} // namespace synctax
