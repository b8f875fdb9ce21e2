#include "ui/charts/taxcurvechart.h"

#include "core/queuemodel/taxestimate.h"
#include "core/text/format.h"
#include "ui/charts/chartstyle.h"

#include <QCategoryAxis>
#include <QElapsedTimer>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

// Short blocks keep 30 points cheap; the estimate's difference of two block lengths keeps them
// steady-state.
constexpr int64_t curveBlockSteps = 10;

} // namespace

TaxCurveChart::TaxCurveChart(QWidget* parent)
    : ChartPanel(parent)
    , m_line(new QLineSeries(this))
    , m_point(new QScatterSeries(this))
    , m_axisX(new QLogValueAxis(this))
    , m_axisY(new QCategoryAxis(this))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(50);
    connect(&m_debounce, &QTimer::timeout, this, &TaxCurveChart::recompute);

    m_line->setPen(QPen(QColor(0xe1, 0x57, 0x59), 2));
    m_point->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_point->setMarkerSize(11);
    m_point->setColor(QColor(0x20, 0x20, 0x20));
    m_point->setBorderColor(Qt::white);
    m_point->setName(tr("this model"));

    m_axisX->setBase(10);
    m_axisX->setRange(minGMs, maxGMs);
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisX->setMinorTickCount(8);
    m_axisX->setTitleText(tr("GPU time per step G (ms, log)"));
    m_axisY->setTitleText(tr("tax (%)"));
    m_axisY->setLabelFormat(QStringLiteral("%g"));

    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    for (QXYSeries* series : { static_cast<QXYSeries*>(m_line), static_cast<QXYSeries*>(m_point) }) {
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    }
    recompute();
}

void TaxCurveChart::setModel(const QueueModel& model, int64_t syncEveryN)
{
    m_model = model;
    m_syncEveryN = syncEveryN;
    m_debounce.start();
}

void TaxCurveChart::flush()
{
    if (m_debounce.isActive()) {
        m_debounce.stop();
        recompute();
    }
}

std::vector<QPointF> TaxCurveChart::sweep(const std::function<double(double gMs)>& taxAt)
{
    std::vector<QPointF> curve;
    for (int i = 0; i < pointCount; ++i) {
        const double gMs = minGMs * std::pow(maxGMs / minGMs, double(i) / (pointCount - 1));
        curve.emplace_back(gMs, taxAt(gMs));
    }
    return curve;
}

void TaxCurveChart::recompute()
{
    QElapsedTimer clock;
    clock.start();
    const auto taxAt = [this](double gMs) {
        QueueModel model = m_model;
        model.gMs = gMs;
        return estimateSyncTax(model, m_syncEveryN, curveBlockSteps).taxPct;
    };
    const double currentG = std::clamp(m_model.gMs, minGMs, maxGMs);
    showCurve(sweep(taxAt), QPointF(currentG, taxAt(currentG)),
        tr("tax of %1 (D %2 ms, H %3 ms, L %4 µs, K %5)")
            .arg(QString::fromStdString(syncEveryLabel(m_syncEveryN)))
            .arg(m_model.dMs, 0, 'g', 3)
            .arg(m_model.hUs * 1e-3, 0, 'g', 3)
            .arg(m_model.lUs, 0, 'g', 3)
            .arg(m_model.k),
        tr("Tax vs GPU time per step"));
    m_lastComputeMs = double(clock.nsecsElapsed()) * 1e-6;
}

void TaxCurveChart::showCurve(
    const std::vector<QPointF>& curve, QPointF current, const QString& name, const QString& title)
{
    m_debounce.stop();
    m_curve = curve;
    m_current = current;
    double highest = current.y();
    for (const QPointF& p : curve)
        highest = std::max(highest, p.y());
    QList<QPointF> points(curve.begin(), curve.end());
    // The model's own point joins the line, so the marker sits on it even on a sharp peak.
    const auto at = std::lower_bound(
        points.begin(), points.end(), m_current, [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    points.insert(at, m_current);
    m_line->replace(points);
    m_point->replace(QList<QPointF> { m_current });
    m_line->setName(name);
    chart()->setTitle(title);
    setNiceRange(m_axisY, 0, std::max(5.0, highest * 1.08), true);
}

} // namespace synctax
