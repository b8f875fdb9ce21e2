#pragma once

#include "core/trace/kinetotrace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace synctax {

// What shows on top of one lane over [start, end): the latest-started event running then, as the
// timeline paints events in start order. Disjoint and sorted, so both ends are binary-searchable.
struct LaneSpan {
    std::int64_t start = 0;
    std::int64_t end = 0;
    TraceEventKind kind = TraceEventKind::CpuOp;
    bool resumed = false; // the rest of an event that a later one hid: painted only where nothing is
};

// One bucket of a summary level: the share of its width covered by spans, in 1/65535, and its kind:
// that of the last event starting in it, as painting events in start order would show (in a
// coarser level: its later half's with a start), else the kind covering most of it.
struct LaneBucket {
    std::uint16_t busy = 0;
    TraceEventKind kind = TraceEventKind::CpuOp;
    bool starts = false; // an event starts in it
    double busyFraction() const { return busy / 65535.0; }
};

// Buckets of 2^shift ns from the lane's origin; every level halves the one before.
struct LaneLevel {
    int shift = 0;
    std::vector<LaneBucket> buckets;
    std::int64_t width() const { return std::int64_t(1) << shift; }
};

// One lane of one file as the timeline paints it, built off the window's thread: its spans, and
// a pyramid of summaries so that a paint costs the pixels, not the events.
struct LaneSummary {
    bool gpu = false;
    std::string label;
    std::vector<LaneSpan> spans;
    std::int64_t origin = 0; // bucket 0 of every level starts here
    std::vector<LaneLevel> levels; // finest first; empty when the lane has no spans
};

// Every lane of one file (indexed as KinetoTrace::lanes), the step starts and the time covered.
struct TimelineLanes {
    std::vector<LaneSummary> lanes;
    std::vector<std::int64_t> steps;
    std::int64_t first = 0;
    std::int64_t last = 0;
    bool empty = true; // no event: first and last say nothing
};

// `progress` gets the share of lanes done, 0..1.
TimelineLanes buildTimelineLanes(const KinetoTrace& trace, const std::function<void(double)>& progress = {});

// The spans (start-sorted, disjoint) of `events`, and their pyramid. Exposed for tests.
LaneSummary summariseLane(std::vector<LaneSpan> events);

// How to paint a lane over [viewStart, viewEnd] at `nsPerPixel`: its spans [firstSpan, lastSpan)
// when few are visible or a pixel is finer than the finest bucket; else `level`, the coarsest level
// whose bucket is no wider than a pixel.
struct LanePaintPlan {
    int level = -1; // -1: draw the spans
    size_t firstSpan = 0;
    size_t lastSpan = 0;
};
LanePaintPlan planLanePaint(
    const LaneSummary& lane, std::int64_t viewStart, std::int64_t viewEnd, double nsPerPixel, size_t maxSpans);

} // namespace synctax
