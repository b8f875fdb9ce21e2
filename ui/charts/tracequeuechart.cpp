#include "ui/charts/tracequeuechart.h"

#include "core/trace/tracereport.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"
#include "ui/charts/fittedlegend.h"

#include <QLegend>
#include <QLineSeries>
#include <QStringList>
#include <QValueAxis>

#include <algorithm>
#include <limits>

namespace synctax {

namespace {

const QColor streamColors[]
    = { QColor(0xf28e2b), QColor(0x59a14f), QColor(0xb07aa1), QColor(0x76b7b2), QColor(0xedc948) };

} // namespace

TraceQueueChart::TraceQueueChart(QWidget* parent)
    : ChartPanel(parent)
    , m_lag(new QLineSeries(this))
    , m_axisX(new QValueAxis(this))
    , m_axisDepth(new QValueAxis(this))
    , m_axisLag(new QValueAxis(this))
{
    m_lag->setName(tr("lag: launch ahead of its GPU work (ms)"));
    m_lag->setPen(QPen(QColor(0x4e79a7), 1.4));
    m_axisX->setTitleText(tr("time in the trace (ms)"));
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisDepth->setTitleText(tr("queued ops"));
    m_axisDepth->setLabelFormat(QStringLiteral("%.0f"));
    m_axisDepth->setTitleBrush(QColor(0xc06010));
    m_axisLag->setTitleText(tr("lag (ms)"));
    m_axisLag->setLabelFormat(QStringLiteral("%g"));
    m_axisLag->setTitleBrush(QColor(0x4e79a7));
    m_axisLag->setGridLineVisible(false);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisDepth, Qt::AlignLeft);
    chart()->addAxis(m_axisLag, Qt::AlignRight);
    chart()->addSeries(m_lag);
    m_lag->attachAxis(m_axisX);
    m_lag->attachAxis(m_axisLag);
    chart()->setTitle(tr("Queue depth and lag"));
    setNiceRange(m_axisX, 0, 1, false);
    setNiceRange(m_axisDepth, 0, 2, true, 1);
    setNiceRange(m_axisLag, 0, 1, true);
    // Whole names in rows under the plot: the side panel is too narrow for Qt Charts' one row.
    chart()->legend()->hide();
    m_legend = new FittedLegend(chart(), Qt::AlignBottom);
    setPlaceholder(tr("No trace yet."));
}

void TraceQueueChart::setTimeSpan(std::int64_t firstNs, std::int64_t lastNs)
{
    m_spanFirst = firstNs;
    m_spanLast = lastNs;
    m_drawnWidth = -1;
}

QStringList TraceQueueChart::legendLabels() const
{
    QStringList labels;
    for (int i = 0; i < m_legend->entryCount(); ++i)
        labels << m_legend->label(i);
    return labels;
}

void TraceQueueChart::adaptToPlotArea() { m_legend->layOut(); }

void TraceQueueChart::setReport(const TraceReport* report)
{
    m_report = report;
    m_drawnWidth = -1;
    refresh();
}

void TraceQueueChart::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    refresh();
}

void TraceQueueChart::refresh()
{
    const int width = plotWidthPixels();
    if (width == m_drawnWidth)
        return;
    m_drawnWidth = width;
    for (QLineSeries* s : m_streams) {
        chart()->removeSeries(s);
        delete s;
    }
    m_streams.clear();
    m_lag->clear();
    m_legend->setEntries({ { m_lag->name(), m_lag->pen() } });
    if (!m_report || (m_report->queues.empty() && m_report->lag.empty())) {
        setPlaceholder(
            m_report ? tr("The trace has no launch joined to GPU work: no queue to draw.") : tr("No trace yet."));
        if (m_report && m_spanFirst < m_spanLast)
            setNiceRange(m_axisX, 0, double(m_spanLast - m_spanFirst) / 1e6, false);
        return;
    }
    setPlaceholder(QString());
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = std::numeric_limits<std::int64_t>::min();
    for (const StreamQueue& q : m_report->queues) {
        if (!q.points.empty()) {
            origin = std::min(origin, q.points.front().ns);
            end = std::max(end, q.points.back().ns);
        }
    }
    for (const LagPoint& l : m_report->lag) {
        origin = std::min(origin, l.ns);
        end = std::max(end, l.ns);
    }
    if (m_spanFirst < m_spanLast) {
        origin = m_spanFirst;
        end = m_spanLast;
    }
    auto ms = [origin](std::int64_t ns) { return double(ns - origin) / 1e6; };
    int maxDepth = 1;
    for (size_t i = 0; i < m_report->queues.size(); ++i) {
        const StreamQueue& q = m_report->queues[i];
        // A queue holds its depth until the next change: drawn as steps.
        std::vector<SamplePoint> points;
        points.reserve(q.points.size() * 2);
        for (size_t p = 0; p < q.points.size(); ++p) {
            if (p > 0)
                points.push_back({ ms(q.points[p].ns), double(q.points[p - 1].depth) });
            points.push_back({ ms(q.points[p].ns), double(q.points[p].depth) });
        }
        auto* series = new QLineSeries(this);
        series->setName(tr("GPU %1 stream %2 queue").arg(q.device).arg(q.stream));
        series->setPen(QPen(streamColors[i % std::size(streamColors)], 1.2));
        series->replace(toQPoints(minMaxDownsample(points, size_t(width))));
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisDepth);
        m_streams.push_back(series);
        maxDepth = std::max(maxDepth, q.max);
    }
    // A DDP rank has a stream per bucket: the legend names the three deepest queues, not ten
    // markers squeezed out of their labels.
    std::vector<size_t> byDepth(m_streams.size());
    for (size_t i = 0; i < byDepth.size(); ++i)
        byDepth[i] = i;
    std::stable_sort(byDepth.begin(), byDepth.end(),
        [&](size_t a, size_t b) { return m_report->queues[a].max > m_report->queues[b].max; });
    byDepth.resize(std::min<size_t>(byDepth.size(), 3));
    std::sort(byDepth.begin(), byDepth.end());
    std::vector<FittedLegend::Entry> entries { { m_lag->name(), m_lag->pen() } };
    for (size_t i : byDepth)
        entries.push_back({ m_streams[i]->name(), m_streams[i]->pen() });
    m_legend->setEntries(std::move(entries));
    std::vector<SamplePoint> lag;
    lag.reserve(m_report->lag.size());
    double maxLag = 0;
    for (const LagPoint& l : m_report->lag) {
        lag.push_back({ ms(l.ns), l.lagMs });
        maxLag = std::max(maxLag, l.lagMs);
    }
    m_lag->replace(toQPoints(minMaxDownsample(lag, size_t(width))));
    setNiceRange(m_axisX, 0, std::max(ms(end), 1e-3), false);
    setNiceRange(m_axisDepth, 0, maxDepth, true, 1);
    setNiceRange(m_axisLag, 0, std::max(maxLag, 1e-3), true);
}

} // namespace synctax
