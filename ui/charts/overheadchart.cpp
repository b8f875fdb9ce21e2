#include "ui/charts/overheadchart.h"

#include "core/analysis/experimentresult.h"
#include "core/config/stylecatalog.h"
#include "core/text/format.h"
#include "ui/charts/categorylabels.h"
#include "ui/charts/chartstyle.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>

namespace synctax {

namespace {

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
    m_baseLabelFont = m_axisX->labelsFont();
    // Qt Charts would cut a label by its own estimate of the room, which is narrower than a
    // category; adaptToPlotArea() makes each fit instead.
    m_axisX->setTruncateLabels(false);
    chart()->setTitle(
        tr("Logging overhead per style<br><small>whiskers: 95% CI · shaded: A/A noise floor per model</small>"));
    setPlaceholder(tr("No results yet."));
}

void OverheadChart::setResult(const ExperimentResult& result)
{
    chart()->removeAllSeries();
    m_bars.clear();
    m_styles = orderedStyles(result);
    // Whole names until the chart is laid out; adaptToPlotArea() then fits them to their categories.
    m_axisX->setCategories(m_styles);
    m_axisX->setLabelsFont(m_baseLabelFont);
    m_axisX->setLabelsAngle(0);

    std::vector<GroupKey> groups;
    std::vector<double> floors;
    const auto addGroup = [&](const GroupKey& key, double floor) {
        if (std::find(groups.begin(), groups.end(), key) == groups.end()) {
            groups.push_back(key);
            floors.push_back(floor);
        }
    };
    for (const GroupResult& group : result.groups)
        addGroup(groupKeyOf(group), group.noiseFloorPct);
    for (const CellResult& cell : result.cells)
        addGroup(groupKeyOf(cell), 0);
    const bool severalModes
        = std::any_of(groups.begin(), groups.end(), [&](const GroupKey& g) { return g.mode != groups.front().mode; });
    const SweptKeys swept = sweptKeys(result.config);
    m_groups.clear();
    for (const GroupKey& g : groups) {
        const QString model = QString::fromStdString(g.model + sweepPointSuffix(swept, g));
        m_groups.append(severalModes ? QStringLiteral("%1 (%2)").arg(model, QString::fromStdString(g.mode)) : model);
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
        hideFromLegend(chart(), band);
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
                if (groupKeyOf(cell) == groups[g] && cell.style == style && cell.ok)
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
        auto* whisker = whiskerSeries(bar.x, bar.overheadPct->low, bar.overheadPct->high, cap, QColor(30, 30, 30));
        whisker->setObjectName(QStringLiteral("ci:%1:%2").arg(bar.group, bar.style));
        chart()->addSeries(whisker);
        whisker->attachAxis(m_axisX);
        whisker->attachAxis(m_axisY);
        hideFromLegend(chart(), whisker);
    }

    const double pad = std::max(0.5, 0.06 * (high - low));
    setNiceRange(m_axisY, low < 0 ? low - pad : 0, high + pad, false);
    adaptToPlotArea();

    if (result.cells.empty())
        setPlaceholder(tr("No results yet."));
    else if (intervals == 0)
        setPlaceholder(tr("No overhead measured yet: each style needs a few paired rounds against the baseline."));
    else
        setPlaceholder(QString());
}

void OverheadChart::adaptToPlotArea()
{
    const qreal plotWidth = chart()->plotArea().width();
    if (m_styles.isEmpty() || plotWidth < 1)
        return;
    // Labels are centred on their categories: narrower than a category less 4 px on each side, they
    // stay clear of each other.
    const CategoryLabels fit = fitCategoryLabels(m_styles, m_baseLabelFont, plotWidth / m_styles.size() - 8);
    // The value axis's title runs along the plot's height: a short plot gets the short title.
    const QString fullTitle = tr("overhead vs none (%)");
    const bool fullFits
        = QFontMetricsF(m_axisY->titleFont()).horizontalAdvance(fullTitle) + 8 <= chart()->plotArea().height();
    const QString yTitle = fullFits ? fullTitle : tr("overhead (%)");
    if (m_axisX->categories() == fit.labels && m_axisX->labelsFont() == fit.font && m_axisX->labelsAngle() == fit.angle
        && m_axisY->titleText() == yTitle)
        return;
    m_axisY->setTitleText(yTitle);
    m_axisX->setCategories(fit.labels);
    m_axisX->setLabelsFont(fit.font);
    m_axisX->setLabelsAngle(fit.angle);
    // Lay the chart out again now, so that an export drawn next shows these labels.
    if (chart()->layout())
        chart()->layout()->activate();
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
