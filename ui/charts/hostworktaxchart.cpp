#include "ui/charts/hostworktaxchart.h"

#include "core/analysis/experimentresult.h"
#include "ui/charts/chartstyle.h"

#include <QCategoryAxis>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

namespace synctax {

namespace {

// Several curves of one style (models, modes or batches): the style's colour no longer tells them
// apart, so each takes a colour of its own.
QColor curveColor(const std::vector<SweepCurve>& curves, size_t index)
{
    const bool shared = std::count_if(curves.begin(), curves.end(), [&](const SweepCurve& c) {
        return c.style == curves[index].style;
    }) > 1;
    return shared ? groupColor(int(index)) : styleColor(QString::fromStdString(curves[index].style));
}

QString curveName(const std::vector<SweepCurve>& curves, const SweepCurve& curve)
{
    const bool oneGroup = std::all_of(curves.begin(), curves.end(),
        [&](const SweepCurve& c) { return c.model == curve.model && c.mode == curve.mode && c.batch == curve.batch; });
    QString style = QString::fromStdString(curve.style);
    if (oneGroup)
        return style;
    return QStringLiteral("%1 (%2/%3, batch %4)")
        .arg(style, QString::fromStdString(curve.model), QString::fromStdString(curve.mode))
        .arg(curve.batch);
}

} // namespace

HostWorkTaxChart::HostWorkTaxChart(QWidget* parent)
    : ChartPanel(parent)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QCategoryAxis(this))
{
    m_axisX->setTitleText(tr("host work per step (ms)"));
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisY->setTitleText(tr("tax vs none (%)"));
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    // A point for the measurements, a dashed stroke for the predictions, as drawn.
    chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart()->setTitle(tr("Tax vs host work per step<br><small>points: measured, whiskers: 95% CI · dashed lines: "
                         "the queue model's prediction</small>"));
    setPlaceholder(tr("This run swept no host work (sweep: host_work_us in the config)."));
}

bool HostWorkTaxChart::hasCurves(const ExperimentResult& result) { return !sweepCurves(result).empty(); }

void HostWorkTaxChart::setResult(const ExperimentResult& result)
{
    chart()->removeAllSeries();
    m_curves.clear();
    const std::vector<SweepCurve> curves = sweepCurves(result);
    double right = 0;
    double low = 0;
    double high = 0;
    const auto attach = [this](QAbstractSeries* series) {
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    };
    for (const SweepCurve& c : curves) {
        for (const SweepPoint& p : c.points)
            right = std::max(right, double(p.hostWorkUs) / 1000.0);
    }
    const double span = std::max(right, 1.0);
    // The styles measured at one host work side by side, a little apart, so that their whiskers do
    // not hide each other; each whisker's caps a third of that gap wide.
    const double gap = span / 80.0;
    const double cap = gap / 3.0;
    for (size_t i = 0; i < curves.size(); ++i) {
        const SweepCurve& c = curves[i];
        const QColor color = curveColor(curves, i);
        const double dodge = (double(i) - double(curves.size() - 1) / 2.0) * gap;
        Curve drawn;
        drawn.name = curveName(curves, c);
        for (const SweepPoint& p : c.points) {
            const double x = double(p.hostWorkUs) / 1000.0 + dodge;
            if (p.measuredPct) {
                drawn.measured.emplace_back(x, p.measuredPct->estimate);
                drawn.intervals.emplace_back(p.measuredPct->low, p.measuredPct->high);
                low = std::min({ low, p.measuredPct->low, p.measuredPct->estimate });
                high = std::max({ high, p.measuredPct->high, p.measuredPct->estimate });
            }
            if (p.predictedPct) {
                drawn.predicted.emplace_back(x, *p.predictedPct);
                low = std::min(low, *p.predictedPct);
                high = std::max(high, *p.predictedPct);
            }
        }
        for (size_t k = 0; k < drawn.measured.size(); ++k) {
            const double x = drawn.measured[k].x();
            const auto [lo, hi] = drawn.intervals[k];
            auto* whisker = whiskerSeries(x, lo, hi, cap, color.darker(120));
            whisker->setObjectName(QStringLiteral("ci:%1:%2").arg(drawn.name).arg(x));
            attach(whisker);
            hideFromLegend(chart(), whisker);
        }
        auto* measured = new QScatterSeries;
        measured->setObjectName(QStringLiteral("measured:%1").arg(drawn.name));
        measured->setName(tr("%1 measured").arg(drawn.name));
        measured->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        measured->setMarkerSize(10);
        measured->setColor(color);
        measured->setBorderColor(color.darker(140));
        measured->replace(QList<QPointF>(drawn.measured.begin(), drawn.measured.end()));
        attach(measured);
        auto* predicted = new QLineSeries;
        predicted->setObjectName(QStringLiteral("predicted:%1").arg(drawn.name));
        predicted->setName(tr("%1 predicted").arg(drawn.name));
        predicted->setPen(QPen(color, 2, Qt::DashLine));
        predicted->replace(QList<QPointF>(drawn.predicted.begin(), drawn.predicted.end()));
        attach(predicted);
        // A run without predictions (the CPU) draws no line: no legend entry promises one.
        if (drawn.predicted.empty())
            hideFromLegend(chart(), predicted);
        m_curves.push_back(std::move(drawn));
    }
    // Room left of 0 ms, so that the whiskers there are drawn whole.
    const double left = -span * 0.03;
    const double end = span * 1.05;
    auto* zero = new QLineSeries;
    zero->append(left, 0);
    zero->append(end, 0);
    zero->setPen(QPen(QColor(60, 60, 60), 1));
    attach(zero);
    hideFromLegend(chart(), zero);

    setNiceRange(m_axisX, left, end, false);
    const double pad = std::max(0.5, 0.06 * (high - low));
    setNiceRange(m_axisY, low < 0 ? low - pad : 0, high + pad, true);

    const bool anyPoint = std::any_of(
        m_curves.begin(), m_curves.end(), [](const Curve& c) { return !c.measured.empty() || !c.predicted.empty(); });
    if (curves.empty())
        setPlaceholder(tr("This run swept no host work (sweep: host_work_us in the config)."));
    else if (!anyPoint)
        setPlaceholder(tr("No tax measured yet: each host work needs a few paired rounds against the baseline."));
    else
        setPlaceholder(QString());
}

} // namespace synctax
