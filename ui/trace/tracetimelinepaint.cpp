// How one lane of the timeline is painted: its visible spans when few, else a level of its pyramid.
#include "ui/trace/tracetimeline.h"

#include "ui/trace/tracetimelinestyle.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace synctax {

using namespace timelinestyle;

void TraceTimeline::paintRow(QPainter& p, const Row& row, int top) const
{
    const int plot = std::max(1, plotRight() - labelWidth);
    const double nsPerPixel = double(m_viewEnd - m_viewStart) / plot;
    for (const LaneSummary* part : row.parts) {
        // A few spans per pixel are cheap to draw as they are; beyond, a summary level costs the pixels.
        const LanePaintPlan plan = planLanePaint(*part, m_viewStart, m_viewEnd, nsPerPixel, 16 * size_t(plot));
        if (plan.level < 0)
            paintSpans(p, *part, plan, top);
        else
            paintBuckets(p, *part, part->levels[size_t(plan.level)], top);
    }
}

void TraceTimeline::paintSpans(QPainter& p, const LaneSummary& lane, const LanePaintPlan& plan, int top) const
{
    // As events painted in start order look: each event's start gets at least a pixel, over what
    // was there; the rest of an event that a later one hid (a resumed span) fills only what is free.
    // Neighbours of one colour within a pixel are one rect.
    double runStart = -1;
    double runEnd = -1;
    QColor runColor;
    auto runCovers = [&] { return runStart < 0 ? double(labelWidth) : runStart + std::max(1.0, runEnd - runStart); };
    double covered = labelWidth;
    auto flush = [&] {
        if (runStart >= 0 && runEnd >= runStart)
            p.fillRect(QRectF(runStart, top + 2, std::max(1.0, runEnd - runStart), rowHeight - 4), runColor);
    };
    for (size_t i = plan.firstSpan; i < plan.lastSpan; ++i) {
        const LaneSpan& s = lane.spans[i];
        double x1 = std::max<double>(labelWidth, xOf(s.start));
        const double x2 = std::min<double>(plotRight(), xOf(s.end));
        if (s.resumed) {
            x1 = std::max({ x1, covered, runCovers() });
            if (x1 >= x2)
                continue;
        }
        const QColor color = kindColor(s.kind);
        if (color == runColor && x1 <= runEnd + 1) {
            runEnd = std::max(runEnd, x2);
            continue;
        }
        covered = std::max(covered, runCovers());
        flush();
        runStart = x1;
        runEnd = x2;
        runColor = color;
    }
    flush();
}

void TraceTimeline::paintBuckets(QPainter& p, const LaneSummary& lane, const LaneLevel& level, int top) const
{
    // One or two buckets fall in each pixel column: the column shows the busier one's kind, as
    // opaque as the column is busy, so that idle time reads as lighter.
    const std::int64_t n = std::int64_t(level.buckets.size());
    const std::int64_t first = std::max<std::int64_t>(0, (m_viewStart - lane.origin) >> level.shift);
    const std::int64_t last = std::min<std::int64_t>(n - 1, (m_viewEnd - lane.origin) >> level.shift);
    int runX = -1;
    int runEndX = -1;
    QColor runColor;
    auto flushRun = [&] {
        if (runX >= 0 && runEndX > runX)
            p.fillRect(QRect(runX, top + 2, runEndX - runX, rowHeight - 4), runColor);
    };
    int column = -1;
    double busy = 0;
    int count = 0;
    LaneBucket best;
    auto flushColumn = [&] {
        if (column < 0 || count == 0)
            return;
        const double share = busy / count / 65535.0;
        QColor color = kindColor(best.kind);
        color.setAlpha(share <= 0 ? 0 : 75 + int(std::lround(share * 12)) * 15); // 13 steps: runs stay long
        if (color == runColor && column == runEndX) {
            runEndX = column + 1;
            return;
        }
        flushRun();
        runX = column;
        runEndX = column + 1;
        runColor = color;
    };
    for (std::int64_t k = first; k <= last; ++k) {
        const int x = int(std::floor(xOf(lane.origin + (k << level.shift))));
        if (x != column) {
            flushColumn();
            column = std::max(x, labelWidth);
            busy = 0;
            count = 0;
            best = {};
        }
        const LaneBucket& b = level.buckets[size_t(k)];
        busy += b.busy;
        ++count;
        if (b.busy > best.busy)
            best = b;
    }
    flushColumn();
    flushRun();
}

} // namespace synctax
