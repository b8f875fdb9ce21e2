#include "ui/charts/overheadchart.h"

#include "core/analysis/experimentresult.h"
#include "core/config/stylecatalog.h"
#include "ui/charts/chartstyle.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCursor>
#include <QFontMetricsF>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QtMath>
#include <algorithm>
#include <array>

namespace synctax {

namespace {

// Style names are long snake_case words; broken into short lines at underscores they fit under
// their bars without rotation, and Qt Charts does not cut them.
QStringList wrappedLabel(const QString& style)
{
    constexpr int lineLength = 9;
    QStringList lines;
    for (const QString& word : style.split(QLatin1Char('_'))) {
        if (!lines.isEmpty() && lines.last().size() + 1 + word.size() <= lineLength)
            lines.last() += QLatin1Char('_') + word;
        else
            lines << word;
    }
    return lines;
}

QColor groupColor(int index)
{
    static const std::array<QColor, 6> palette { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xb07aa1),
        QColor(0x9c755f), QColor(0xe15759) };
    return palette[size_t(index) % palette.size()];
}

// The controls first, where they read as the reference; then the catalog's order.
QStringList orderedStyles(const ExperimentResult& result)
{
    std::vector<std::string> present;
    for (const CellResult& cell : result.cells) {
        if (cell.style != baselineStyle() && std::find(present.begin(), present.end(), cell.style) == present.end())
            present.push_back(cell.style);
    }
    std::vector<std::string> order { aaControlStyle(), observerControlStyle() };
    for (const StyleInfo& info : styleCatalog())
        order.push_back(info.name);
    const auto rank
        = [&order](const std::string& style) { return std::find(order.begin(), order.end(), style) - order.begin(); };
    std::stable_sort(present.begin(), present.end(),
        [&rank](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    QStringList styles;
    for (const std::string& style : present)
        styles.append(QString::fromStdString(style));
    return styles;
}

void hideFromLegend(QChart* chart, QAbstractSeries* series)
{
    for (QLegendMarker* marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

} // namespace

OverheadChart::OverheadChart(QWidget* parent)
    : ChartPanel(parent)
    , m_axisX(new QBarCategoryAxis(this))
    , m_axisY(new QValueAxis(this))
{
    m_axisX->setTitleText(tr("logging style"));
    m_axisY->setTitleText(tr("overhead vs none (%)"));
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    chart()->setTitle(
        tr("Logging overhead per style<br><small>whiskers: 95% CI · shaded: A/A noise floor per model</small>"));
    setPlaceholder(tr("No results yet."));
}

void OverheadChart::setResult(const ExperimentResult& result)
{
    chart()->removeAllSeries();
    m_bars.clear();
    m_styles = orderedStyles(result);
    m_axisX->clear();
    QStringList labels;
    for (const QString& style : m_styles)
        labels << wrappedLabel(style).join(QStringLiteral("<br>"));
    m_axisX->append(labels);

    std::vector<std::pair<std::string, std::string>> groups;
    std::vector<double> floors;
    const auto addGroup = [&](const std::string& model, const std::string& mode, double floor) {
        const auto key = std::make_pair(model, mode);
        if (std::find(groups.begin(), groups.end(), key) == groups.end()) {
            groups.push_back(key);
            floors.push_back(floor);
        }
    };
    for (const GroupResult& group : result.groups)
        addGroup(group.model, group.mode, group.noiseFloorPct);
    for (const CellResult& cell : result.cells)
        addGroup(cell.model, cell.mode, 0);
    const bool severalModes
        = std::any_of(groups.begin(), groups.end(), [&](const auto& g) { return g.second != groups.front().second; });
    m_groups.clear();
    for (const auto& [model, mode] : groups) {
        m_groups.append(severalModes
                ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(model), QString::fromStdString(mode))
                : QString::fromStdString(model));
    }

    const double left = -0.5;
    const double right = double(m_styles.size()) - 0.5;
    double low = 0;
    double high = 0;

    // Bands first, so bars and whiskers are drawn over them.
    for (size_t g = 0; g < groups.size(); ++g) {
        if (floors[g] <= 0 || m_styles.isEmpty())
            continue;
        auto* upper = new QLineSeries;
        upper->append(left, floors[g]);
        upper->append(right, floors[g]);
        auto* lower = new QLineSeries;
        lower->append(left, -floors[g]);
        lower->append(right, -floors[g]);
        auto* band = new QAreaSeries(upper, lower);
        upper->setParent(band);
        lower->setParent(band);
        band->setName(tr("A/A noise floor %1").arg(m_groups[int(g)]));
        QColor fill = groupColor(int(g));
        fill.setAlpha(40);
        band->setBrush(fill);
        QColor edge = groupColor(int(g));
        edge.setAlpha(150);
        band->setPen(QPen(edge, 1, Qt::DashLine));
        chart()->addSeries(band);
        band->attachAxis(m_axisX);
        band->attachAxis(m_axisY);
        // The subtitle explains the bands; one legend entry per model would crowd out the bars' names.
        for (QLegendMarker* marker : chart()->legend()->markers(band))
            marker->setVisible(false);
        low = std::min(low, -floors[g]);
        high = std::max(high, floors[g]);
    }

    auto* barSeries = new QBarSeries;
    barSeries->setBarWidth(barWidth);
    const double slot = barWidth / double(std::max<size_t>(1, groups.size()));
    for (size_t g = 0; g < groups.size(); ++g) {
        auto* set = new QBarSet(m_groups[int(g)]);
        set->setColor(groupColor(int(g)));
        set->setBorderColor(groupColor(int(g)).darker(130));
        for (int s = 0; s < m_styles.size(); ++s) {
            Bar bar;
            bar.group = m_groups[int(g)];
            bar.style = m_styles[s];
            bar.x = double(s) - barWidth / 2 + (double(g) + 0.5) * slot;
            const std::string style = m_styles[s].toStdString();
            for (const CellResult& cell : result.cells) {
                if (cell.model == groups[g].first && cell.mode == groups[g].second && cell.style == style && cell.ok)
                    bar.overheadPct = cell.overheadPct;
            }
            // A zero-height bar: the slot stays, so the other groups keep their places.
            set->append(bar.overheadPct ? bar.overheadPct->estimate : 0.0);
            if (bar.overheadPct) {
                low = std::min({ low, bar.overheadPct->low, bar.overheadPct->estimate });
                high = std::max({ high, bar.overheadPct->high, bar.overheadPct->estimate });
            }
            m_bars.push_back(bar);
        }
        barSeries->append(set);
    }
    chart()->addSeries(barSeries);
    barSeries->attachAxis(m_axisX);
    barSeries->attachAxis(m_axisY);
    connect(barSeries, &QBarSeries::hovered, this, &OverheadChart::showBarToolTip);

    auto* zero = new QLineSeries;
    zero->append(left, 0);
    zero->append(right, 0);
    zero->setPen(QPen(QColor(60, 60, 60), 1));
    chart()->addSeries(zero);
    zero->attachAxis(m_axisX);
    zero->attachAxis(m_axisY);
    hideFromLegend(chart(), zero);

    const double cap = slot * 0.25;
    int intervals = 0;
    for (const Bar& bar : m_bars) {
        if (!bar.overheadPct)
            continue;
        ++intervals;
        // One polyline per whisker: bottom cap, up the middle, top cap.
        auto* whisker = new QLineSeries;
        whisker->setObjectName(QStringLiteral("ci:%1:%2").arg(bar.group, bar.style));
        const double lo = bar.overheadPct->low;
        const double hi = bar.overheadPct->high;
        whisker->append({ QPointF(bar.x - cap, lo), QPointF(bar.x + cap, lo), QPointF(bar.x, lo), QPointF(bar.x, hi),
            QPointF(bar.x - cap, hi), QPointF(bar.x + cap, hi) });
        whisker->setPen(QPen(QColor(30, 30, 30), 1.5));
        chart()->addSeries(whisker);
        whisker->attachAxis(m_axisX);
        whisker->attachAxis(m_axisY);
        hideFromLegend(chart(), whisker);
    }

    const double pad = std::max(0.5, 0.06 * (high - low));
    setNiceRange(m_axisY, low < 0 ? low - pad : 0, high + pad, false);
    updateLabelAngle();

    if (result.cells.empty())
        setPlaceholder(tr("No results yet."));
    else if (intervals == 0)
        setPlaceholder(tr("No overhead measured yet: each style needs a few paired rounds against the baseline."));
    else
        setPlaceholder(QString());
}

void OverheadChart::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    updateLabelAngle();
}

void OverheadChart::updateLabelAngle()
{
    if (m_styles.isEmpty())
        return;
    if (m_baseLabelFont.pointSizeF() <= 0)
        m_baseLabelFont = m_axisX->labelsFont();
    // Qt Charts cuts a label that is wider than its category once rotated, so first try slightly
    // smaller type, then the least rotation that fits; judged at no more than the export width so
    // exports are not cut either.
    const qreal width = std::min(plotWidthPixels(), defaultExportSize().width() - 150);
    const qreal category = width / m_styles.size() - 4;
    auto longestLine = [this](const QFont& font) {
        const QFontMetricsF metrics(font);
        qreal longest = 0;
        for (const QString& style : m_styles)
            for (const QString& line : wrappedLabel(style))
                longest = std::max(longest, metrics.horizontalAdvance(line));
        return longest;
    };
    QFont font = m_baseLabelFont;
    int angle = -90;
    for (qreal shrink : { 0.0, 1.0, 1.5 }) {
        font.setPointSizeF(m_baseLabelFont.pointSizeF() - shrink);
        if (longestLine(font) <= category) {
            angle = 0;
            break;
        }
    }
    if (angle != 0) {
        const QFontMetricsF metrics(font);
        const qreal longest = longestLine(font);
        for (int candidate : { -30, -45, -60 }) {
            const qreal radians = qDegreesToRadians(qreal(-candidate));
            if (longest * std::cos(radians) + metrics.height() * std::sin(radians) <= category) {
                angle = candidate;
                break;
            }
        }
    }
    if (m_axisX->labelsFont() != font)
        m_axisX->setLabelsFont(font);
    if (m_axisX->labelsAngle() != angle)
        m_axisX->setLabelsAngle(angle);
}

void OverheadChart::showBarToolTip(bool entered, int index, QBarSet* set)
{
    if (!entered || !set) {
        QToolTip::hideText();
        return;
    }
    for (const Bar& bar : m_bars) {
        if (bar.group != set->label() || index < 0 || index >= m_styles.size() || bar.style != m_styles[index])
            continue;
        if (bar.overheadPct) {
            QToolTip::showText(QCursor::pos(),
                tr("%1, %2: %3% (95% CI %4 … %5)")
                    .arg(bar.group, bar.style)
                    .arg(bar.overheadPct->estimate, 0, 'f', 2)
                    .arg(bar.overheadPct->low, 0, 'f', 2)
                    .arg(bar.overheadPct->high, 0, 'f', 2),
                this);
        } else {
            QToolTip::showText(QCursor::pos(), tr("%1, %2: no interval").arg(bar.group, bar.style), this);
        }
        return;
    }
}

} // namespace synctax
