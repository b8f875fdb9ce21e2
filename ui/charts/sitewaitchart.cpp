#include "ui/charts/sitewaitchart.h"

#include "ui/charts/chartstyle.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace synctax {

SiteWaitChart::SiteWaitChart(QWidget* parent)
    : ChartPanel(parent)
    , m_series(new QHorizontalBarSeries)
    , m_set(new QBarSet(tr("wait per step")))
    , m_axisY(new QBarCategoryAxis(this))
    , m_axisX(new QValueAxis(this))
{
    m_set->setColor(QColor(0xe15759));
    m_set->setBorderColor(QColor(0xe15759).darker(130));
    m_series->append(m_set);
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value"));
    m_series->setLabelsPrecision(3);
    chart()->addSeries(m_series);
    m_axisY->setTruncateLabels(false);
    m_axisX->setTitleText(tr("ms per step"));
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    m_series->attachAxis(m_axisY);
    m_series->attachAxis(m_axisX);
    chart()->legend()->hide();
    chart()->setTitle(tr("Sync wait per site<br><small>each op at its line of your code</small>"));
    connect(m_series, &QHorizontalBarSeries::hovered, this, [this](bool on, int index) {
        if (on && index >= 0 && index < m_details.size())
            QToolTip::showText(QCursor::pos(), m_details[index], this);
        else
            QToolTip::hideText();
    });
    setPlaceholder(tr("No sync yet."));
}

void SiteWaitChart::setSites(const std::vector<Site>& sites, const QString& whyNone)
{
    QStringList labels;
    QStringList details;
    QList<qreal> values;
    const size_t shown = std::min<size_t>(sites.size(), maxSites);
    for (size_t i = 0; i < shown; ++i) {
        labels << sites[i].label;
        details << sites[i].detail;
        values << sites[i].waitMsPerStep;
    }
    if (sites.size() > shown) {
        double rest = 0;
        for (size_t i = shown; i < sites.size(); ++i)
            rest += sites[i].waitMsPerStep;
        labels << tr("%n other site(s)", nullptr, int(sites.size() - shown));
        details << labels.back();
        values << rest;
    }
    // The horizontal axis lists from the bottom: reversed, the most wait reads first.
    std::reverse(labels.begin(), labels.end());
    std::reverse(details.begin(), details.end());
    std::reverse(values.begin(), values.end());
    // Waits run from nanoseconds (a sync once a run, spread over its steps) to tens of
    // milliseconds: the unit follows the largest bar, so labels never read in exponents.
    const double topMs = values.isEmpty() ? 0 : *std::max_element(values.begin(), values.end());
    // No site yet: milliseconds, 0 to 1, not a nanosecond axis with nothing on it.
    m_scale = topMs >= 0.1 || values.isEmpty() ? 1.0 : topMs >= 1e-4 ? 1e3 : 1e6;
    const QString unit = m_scale == 1.0 ? tr("ms") : m_scale == 1e3 ? tr("µs") : tr("ns");
    m_axisX->setTitleText(tr("%1 per step").arg(unit));
    for (qreal& v : values)
        v *= m_scale;
    if (labels != m_labels) {
        m_axisY->setCategories(labels);
        m_labels = labels;
    }
    m_details = details;
    if (m_set->count() != values.size()) {
        m_set->remove(0, m_set->count());
        m_set->append(values);
    } else {
        for (qsizetype i = 0; i < values.size(); ++i)
            m_set->replace(int(i), values[i]);
    }
    const double top = topMs * m_scale;
    setNiceRange(m_axisX, 0, top > 0 ? top * 1.15 : 1.0, true);
    setPlaceholder(labels.isEmpty() ? whyNone : QString());
}

std::vector<double> SiteWaitChart::values() const
{
    std::vector<double> v;
    for (int i = m_set->count() - 1; i >= 0; --i)
        v.push_back(m_set->at(i) / m_scale);
    return v;
}

} // namespace synctax
