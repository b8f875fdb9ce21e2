#include "ui/trace/timelinelanes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace synctax {

namespace {

constexpr size_t kindCount = size_t(TraceEventKind::CudaSync) + 1;
// The finest level has about one bucket per span (at least this many): bounded memory, and below
// its width the spans themselves are few enough to draw.
constexpr size_t minFineBuckets = 1024;

// The painter's view of start-sorted events: at every instant the latest-started running one.
std::vector<LaneSpan> flatten(const std::vector<LaneSpan>& events)
{
    std::vector<LaneSpan> out;
    out.reserve(events.size());
    auto append = [&out](std::int64_t a, std::int64_t b, TraceEventKind kind, bool resumed) {
        // Nested events of one kind look as one: a cpu_op inside a cpu_op adds no span.
        if (!out.empty() && out.back().kind == kind && out.back().end >= a)
            out.back().end = std::max(out.back().end, b);
        else
            out.push_back({ a, b, kind, resumed });
    };
    std::vector<LaneSpan> open; // a stack: only `end` and `kind` are used
    std::int64_t cursor = std::numeric_limits<std::int64_t>::min();
    auto advance = [&](std::int64_t until) {
        while (!open.empty() && cursor < until) {
            const LaneSpan top = open.back();
            if (top.end <= cursor) {
                open.pop_back();
                continue;
            }
            const std::int64_t to = std::min(top.end, until);
            append(cursor, to, top.kind, top.start < cursor);
            cursor = to;
        }
        cursor = std::max(cursor, until);
    };
    for (const LaneSpan& e : events) {
        advance(e.start);
        if (e.end <= e.start)
            append(e.start, e.start, e.kind, false); // an instant still gets its pixel
        else
            open.push_back(e);
    }
    advance(std::numeric_limits<std::int64_t>::max());
    return out;
}

LaneLevel finestLevel(const std::vector<LaneSpan>& spans, std::int64_t origin)
{
    const std::int64_t range = std::max<std::int64_t>(1, spans.back().end - origin);
    const size_t most = std::max(minFineBuckets, spans.size());
    LaneLevel level;
    while (size_t(((range - 1) >> level.shift) + 1) > most)
        ++level.shift;
    const std::int64_t w = level.width();
    level.buckets.resize(size_t(((range - 1) >> level.shift) + 1));
    std::array<std::int64_t, kindCount> covered {};
    std::int64_t current = -1;
    int started = -1; // the kind of the last event starting in the current bucket
    auto finish = [&] {
        if (current < 0)
            return;
        std::int64_t total = 0;
        size_t best = 0;
        for (size_t k = 0; k < kindCount; ++k) {
            total += covered[k];
            if (covered[k] > covered[best])
                best = k;
        }
        level.buckets[size_t(current)] = { std::uint16_t(std::lround(65535.0 * double(total) / double(w))),
            TraceEventKind(started >= 0 ? size_t(started) : best), started >= 0 };
        covered.fill(0);
        current = -1;
        started = -1;
    };
    for (const LaneSpan& s : spans) {
        if (s.end <= s.start)
            continue;
        const std::int64_t a = s.start - origin;
        const std::int64_t b = s.end - origin;
        const std::int64_t first = a >> level.shift;
        const std::int64_t last = (b - 1) >> level.shift;
        for (std::int64_t k = first; k <= last; ++k) {
            if (k > first && k < last) {
                finish(); // a bucket wholly inside the span
                level.buckets[size_t(k)] = { 65535, s.kind };
                continue;
            }
            if (k != current) {
                finish();
                current = k;
            }
            covered[size_t(s.kind)] += std::min(b, (k + 1) * w) - std::max(a, k * w);
            if (k == first && !s.resumed)
                started = int(s.kind);
        }
    }
    finish();
    return level;
}

LaneLevel coarser(const LaneLevel& fine)
{
    LaneLevel level;
    level.shift = fine.shift + 1;
    level.buckets.resize((fine.buckets.size() + 1) / 2);
    for (size_t i = 0; i < level.buckets.size(); ++i) {
        const LaneBucket a = fine.buckets[2 * i];
        const LaneBucket b = 2 * i + 1 < fine.buckets.size() ? fine.buckets[2 * i + 1] : LaneBucket {};
        const TraceEventKind kind = b.starts ? b.kind : a.starts ? a.kind : a.busy >= b.busy ? a.kind : b.kind;
        level.buckets[i] = { std::uint16_t((unsigned(a.busy) + unsigned(b.busy) + 1) / 2), kind, a.starts || b.starts };
    }
    return level;
}

} // namespace

LaneSummary summariseLane(std::vector<LaneSpan> events)
{
    if (!std::is_sorted(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.start < b.start; }))
        std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    LaneSummary lane;
    lane.spans = flatten(events);
    events = {};
    if (lane.spans.empty())
        return lane;
    lane.origin = lane.spans.front().start;
    lane.levels.push_back(finestLevel(lane.spans, lane.origin));
    while (lane.levels.back().buckets.size() > 1)
        lane.levels.push_back(coarser(lane.levels.back()));
    return lane;
}

TimelineLanes buildTimelineLanes(const KinetoTrace& trace, const std::function<void(double)>& progress)
{
    TimelineLanes out;
    out.first = std::numeric_limits<std::int64_t>::max();
    out.last = std::numeric_limits<std::int64_t>::min();
    std::vector<size_t> counts(trace.lanes.size());
    for (const TraceEvent& e : trace.events) {
        if (e.kind != TraceEventKind::Step && e.lane < counts.size())
            ++counts[e.lane];
    }
    std::vector<std::vector<LaneSpan>> events(trace.lanes.size());
    for (size_t l = 0; l < events.size(); ++l)
        events[l].reserve(counts[l]);
    for (const TraceEvent& e : trace.events) {
        if (e.kind == TraceEventKind::Step) {
            // Steps bound the view and mark the ruler; they have no lane of their own.
            out.steps.push_back(e.startNs);
        } else if (e.lane < events.size()) {
            events[e.lane].push_back({ e.startNs, e.endNs(), e.kind });
        } else {
            continue;
        }
        out.first = std::min(out.first, e.startNs);
        out.last = std::max(out.last, e.endNs());
    }
    out.empty = out.first > out.last;
    for (size_t l = 0; l < events.size(); ++l) {
        LaneSummary lane = summariseLane(std::move(events[l]));
        lane.gpu = trace.lanes[l].gpu;
        lane.label = trace.lanes[l].label;
        out.lanes.push_back(std::move(lane));
        if (progress)
            progress(double(l + 1) / double(events.size()));
    }
    return out;
}

LanePaintPlan planLanePaint(
    const LaneSummary& lane, std::int64_t viewStart, std::int64_t viewEnd, double nsPerPixel, size_t maxSpans)
{
    LanePaintPlan plan;
    const auto& spans = lane.spans;
    // Spans are disjoint: their ends are as sorted as their starts.
    plan.firstSpan = size_t(std::partition_point(spans.begin(), spans.end(), [&](const LaneSpan& s) {
        return s.end < viewStart;
    }) - spans.begin());
    plan.lastSpan = size_t(std::partition_point(spans.begin(), spans.end(), [&](const LaneSpan& s) {
        return s.start <= viewEnd;
    }) - spans.begin());
    plan.lastSpan = std::max(plan.firstSpan, plan.lastSpan);
    if (plan.lastSpan - plan.firstSpan <= maxSpans || lane.levels.empty()
        || nsPerPixel < double(lane.levels.front().width()))
        return plan;
    plan.level = 0;
    for (size_t next = 1; next < lane.levels.size() && double(lane.levels[next].width()) <= nsPerPixel; ++next)
        plan.level = int(next);
    return plan;
}

} // namespace synctax
