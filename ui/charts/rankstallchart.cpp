#include "ui/charts/rankstallchart.h"

#include "ui/charts/axisrange.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"

#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace synctax {

namespace {

QPen lanePen(const RankStallLane& lane)
{
    // Rank 0's step time thick and dark, as the step chart draws its baseline; the waits in colour.
    if (lane.kind == RankStallLane::Kind::StepTime)
        return QPen(QColor(20, 20, 20), 2.2);
    // Rank 0's own wait thin and dashed: the part of its step time spent waiting for the others.
    if (lane.rank == 0)
        return QPen(QColor(120, 120, 120), 1.2, Qt::DashLine);
    return QPen(groupColor(lane.rank), 1.8);
}

} // namespace

RankStallChart::RankStallChart(QWidget* parent)
    : ChartPanel(parent)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QValueAxis(this))
{
    addStepAxes(chart(), m_axisX, tr("measured step of this cell (its blocks in the order they ran)"), m_axisY,
        tr("ms per step"));
    chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart()->setTitle(tr("Rank 0's stall and the other ranks' wait"));
    setPlaceholder(tr("Select a row of the table."));
}

QString RankStallChart::laneName(const RankStallLane& lane)
{
    return lane.kind == RankStallLane::Kind::StepTime ? tr("rank %1 step time").arg(lane.rank)
                                                      : tr("rank %1 wait in the all-reduce").arg(lane.rank);
}

void RankStallChart::setLanes(
    std::vector<RankStallLane> lanes, const QString& cellName, const QString& note, const QString& whyNone)
{
    QString title = tr("Rank 0's stall and the other ranks' wait — %1").arg(cellName.toHtmlEscaped());
    title += QStringLiteral("<br><small>%1</small>")
                 .arg(note.isEmpty() ? tr("per measured step: rank 0's host step time, and each rank's time "
                                          "blocked in the gradient all-reduce (rank 0's dashed)")
                                     : note.toHtmlEscaped());
    chart()->setTitle(title);
    m_lanes = std::move(lanes);
    for (QLineSeries* s : m_series) {
        chart()->removeSeries(s);
        delete s;
    }
    m_series.clear();
    for (const RankStallLane& lane : m_lanes) {
        auto* series = new QLineSeries;
        series->setObjectName(
            QStringLiteral("rank%1:%2")
                .arg(lane.rank)
                .arg(lane.kind == RankStallLane::Kind::StepTime ? QStringLiteral("step") : QStringLiteral("wait")));
        series->setName(laneName(lane));
        series->setPen(lanePen(lane));
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        m_series.push_back(series);
    }
    m_drawnWidth = 0;
    redraw();
    setPlaceholder(m_lanes.empty() ? (whyNone.isEmpty() ? tr("No steps of this cell to show.") : whyNone) : QString());
}

void RankStallChart::showNothing(const QString& why)
{
    setLanes({}, QString(), QString(), why);
    chart()->setTitle(tr("Rank 0's stall and the other ranks' wait"));
}

void RankStallChart::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    if (plotWidthPixels() != m_drawnWidth)
        redraw();
}

void RankStallChart::redraw()
{
    const int width = plotWidthPixels();
    m_drawnWidth = width;
    size_t longest = 0;
    double ceiling = 0;
    for (size_t i = 0; i < m_lanes.size(); ++i) {
        const std::vector<double>& ms = m_lanes[i].ms;
        const std::vector<float> values(ms.begin(), ms.end());
        // A spike survives the decimation (a stall is what this chart is for); the points kept are
        // drawn at the lane's own values, not their float copies. A step without a wait is left out.
        QList<QPointF> points;
        for (size_t k : minMaxIndices(values.data(), values.size(), size_t(width))) {
            if (ms[k] >= 0)
                points.append(QPointF(double(k), ms[k]));
        }
        m_series[i]->replace(points);
        longest = std::max(longest, values.size());
        ceiling = std::max(ceiling, robustCeiling(values.data(), values.size(), 0));
    }
    setNiceRange(m_axisX, 0, std::max<double>(1, double(longest) - 1), false, 1);
    setNiceRange(m_axisY, 0, ceiling > 0 ? ceiling : 1, true);
}

} // namespace synctax
