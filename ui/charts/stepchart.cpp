#include "ui/charts/stepchart.h"

#include "core/config/stylecatalog.h"
#include "core/steps/runhistory.h"
#include "ui/charts/axisrange.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"
#include "ui/charts/fittedlegend.h"

#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace synctax {

StepChart::StepChart(QWidget* parent)
    : ChartPanel(parent)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QValueAxis(this))
{
    addStepAxes(chart(), m_axisX, tr("step (of this style)"), m_axisY, tr("host step time (ms)"));
    chart()->setTitle(tr("Step time"));
    // Up to thirteen style names: in as many columns as the chart's height needs, where Qt Charts'
    // own column would cut the last ones on a short dock.
    chart()->legend()->hide();
    m_legend = new FittedLegend(chart(), Qt::AlignRight);
    QFont legendFont = chart()->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_legend->setFont(legendFont);
    setPlaceholder(tr("No run yet."));
}

void StepChart::setHistory(const RunHistory* history)
{
    m_history = history;
    m_dirty = true;
}

void StepChart::setGroup(const GroupKey& group, const QString& name)
{
    chart()->setTitle(tr("Step time — %1").arg(name));
    m_name = name;
    if (group == m_group)
        return;
    m_group = group;
    m_dirty = true;
}

void StepChart::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    refresh();
}

void StepChart::adaptToPlotArea() { m_legend->layOut(); }

std::vector<uint32_t> StepChart::groupCells() const
{
    std::vector<uint32_t> cells;
    if (!m_history)
        return cells;
    // The baseline and its controls head the legend, which a short dock may cut at the bottom;
    // the thin translucent lines of the others do not hide the thick baseline they cross.
    std::vector<uint32_t> others;
    for (const CellPlan& plan : m_history->cells()) {
        if (groupKeyOf(plan) != m_group)
            continue;
        if (plan.style == baselineStyle())
            cells.insert(cells.begin(), plan.index);
        else if (isControlStyle(plan.style))
            cells.push_back(plan.index);
        else
            others.push_back(plan.index);
    }
    cells.insert(cells.end(), others.begin(), others.end());
    return cells;
}

void StepChart::rebuildSeries(const std::vector<uint32_t>& cells)
{
    for (const Line& line : m_lines) {
        chart()->removeSeries(line.series);
        delete line.series;
    }
    m_lines.clear();
    for (uint32_t cell : cells) {
        const QString style = QString::fromStdString(m_history->cells().at(cell).style);
        auto* series = new QLineSeries;
        series->setName(style);
        series->setPen(stylePen(style));
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        m_lines.push_back({ cell, series });
    }
    std::vector<FittedLegend::Entry> entries;
    for (const Line& line : m_lines)
        entries.push_back({ line.series->name(), line.series->pen() });
    m_legend->setEntries(std::move(entries));
}

void StepChart::refresh()
{
    const std::vector<uint32_t> cells = groupCells();
    const bool sameCells = std::equal(cells.begin(), cells.end(), m_lines.begin(), m_lines.end(),
        [](uint32_t cell, const Line& line) { return cell == line.cell; });
    if (!sameCells) {
        rebuildSeries(cells);
        m_dirty = true;
    }
    const int width = plotWidthPixels();
    const uint64_t version = m_history ? m_history->version() : 0;
    const uint32_t runId = m_history ? m_history->runId() : 0;
    if (!m_dirty && version == m_drawnVersion && width == m_drawnWidth)
        return;
    // A new width or run redraws every line; otherwise only the lines whose cell grew (one cell
    // runs at a time), so a drain stays cheap with a million steps on screen.
    const bool redrawAll = m_dirty || width != m_drawnWidth || runId != m_drawnRunId;
    m_dirty = false;
    m_drawnVersion = version;
    m_drawnWidth = width;
    m_drawnRunId = runId;

    size_t longest = 0;
    double ceiling = 0;
    for (Line& line : m_lines) {
        const CellHistory& history = m_history->cell(line.cell);
        if (redrawAll || history.size() != line.drawnSteps) {
            const std::vector<SamplePoint> points = minMaxDownsample(history.stepMs, size_t(width));
            QList<QPointF> drawn;
            drawn.reserve(qsizetype(points.size()));
            for (const SamplePoint& p : points)
                drawn.append(QPointF(p.x, p.y));
            line.series->replace(drawn);
            line.drawnSteps = history.size();
            // Each style's own 99th percentile, so a slow style is not cut off by the fast ones.
            line.ceiling = robustCeiling(history.stepMs.data(), history.size(), 0);
        }
        longest = std::max(longest, history.size());
        ceiling = std::max(ceiling, line.ceiling);
    }
    setNiceRange(m_axisX, 0, std::max<double>(1, double(longest) - 1), false, 1);
    setNiceRange(m_axisY, 0, ceiling > 0 ? ceiling : 1, true);

    if (!m_history)
        setPlaceholder(noHistoryText());
    else if (m_lines.empty())
        setPlaceholder(tr("This run has no cells for %1.").arg(m_name));
    else if (longest == 0)
        setPlaceholder(tr("Waiting for the first measured block of %1…").arg(m_name));
    else
        setPlaceholder(QString());
}

} // namespace synctax
