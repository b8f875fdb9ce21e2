#include "ui/charts/abtaxchart.h"

#include "ui/charts/axisrange.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/fittedlegend.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace synctax {

namespace {

const QColor treatedColor(0x0077bb); // item's colour in every chart (styleColor)

} // namespace

AbTaxChart::AbTaxChart(QWidget* parent)
    : ChartPanel(parent)
    , m_low(new QLineSeries(this))
    , m_high(new QLineSeries(this))
    , m_controlLow(new QLineSeries(this))
    , m_controlHigh(new QLineSeries(this))
    , m_estimate(new QLineSeries)
    , m_zero(new QLineSeries)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QCategoryAxis(this))
{
    m_axisX->setTitleText(tr("complete A/B rounds"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisY->setTitleText(tr("tax (%)"));
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);

    m_controlBand = new QAreaSeries(m_controlHigh, m_controlLow);
    m_controlBand->setName(tr("A/A control, 95% (noise floor)"));
    m_controlBand->setBrush(QColor(150, 150, 150, 90));
    m_controlBand->setPen(Qt::NoPen);
    QColor fill = treatedColor;
    fill.setAlpha(70);
    m_band = new QAreaSeries(m_high, m_low);
    m_band->setName(tr("95% interval"));
    m_band->setBrush(fill);
    m_band->setPen(QPen(treatedColor.lighter(130), 0.8));
    m_estimate->setName(tr("measured tax"));
    m_estimate->setPen(QPen(treatedColor, 2.2));
    m_estimate->setPointsVisible(true);
    m_zero->setPen(QPen(QColor(60, 60, 60), 1, Qt::DashLine));
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_controlBand, m_band, m_estimate, m_zero }) {
        chart()->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    chart()->legend()->hide();
    m_legend = new FittedLegend(chart(), Qt::AlignBottom);
    m_legend->setEntries({ { m_estimate->name(), m_estimate->pen() }, { m_band->name(), QPen(fill, 8) },
        { m_controlBand->name(), QPen(QColor(150, 150, 150, 140), 8) } });
    setNiceRange(m_axisX, 0, 2, false, 1);
    setNiceRange(m_axisY, -1, 1, true);
    setPoints({}, tr("an added loss.item()"), tr("No A/B in this run."));
}

void AbTaxChart::adaptToPlotArea() { m_legend->layOut(); }

int AbTaxChart::drawnRounds() const { return m_estimate->count() > 0 ? int(m_estimate->points().back().x()) : 0; }

void AbTaxChart::setPoints(const std::vector<Point>& points, const QString& what, const QString& whyNone)
{
    QList<QPointF> low, high, estimate, controlLow, controlHigh;
    double bottom = 0;
    double top = 0;
    int lastRound = 0;
    m_last.reset();
    for (const Point& p : points) {
        lastRound = std::max(lastRound, p.rounds);
        if (p.treated) {
            low << QPointF(p.rounds, p.treated->low);
            high << QPointF(p.rounds, p.treated->high);
            estimate << QPointF(p.rounds, p.treated->estimate);
            bottom = std::min(bottom, p.treated->low);
            top = std::max(top, p.treated->high);
            m_last = p.treated;
        }
        if (p.control) {
            controlLow << QPointF(p.rounds, p.control->low);
            controlHigh << QPointF(p.rounds, p.control->high);
            bottom = std::min(bottom, p.control->low);
            top = std::max(top, p.control->high);
        }
    }
    m_low->replace(low);
    m_high->replace(high);
    m_estimate->replace(estimate);
    m_controlLow->replace(controlLow);
    m_controlHigh->replace(controlHigh);
    const double firstRound = estimate.isEmpty() ? 0 : estimate.front().x();
    m_zero->replace({ QPointF(firstRound, 0), QPointF(std::max(firstRound + 1, double(lastRound)), 0) });
    setNiceRange(m_axisX, firstRound, std::max(firstRound + 1, double(lastRound)), false, 1);
    setNiceRange(m_axisY, bottom < 0 ? bottom * 1.1 : -0.5, top > 0 ? top * 1.1 : 0.5, true);
    QString sub = tr("of %1, paired, unprofiled").arg(what.toHtmlEscaped());
    if (m_last)
        sub = tr("of %1 after %2 rounds: %3% [%4, %5]")
                  .arg(what.toHtmlEscaped())
                  .arg(lastRound)
                  .arg(QString::asprintf("%+.1f", m_last->estimate), QString::asprintf("%+.1f", m_last->low),
                      QString::asprintf("%+.1f", m_last->high));
    chart()->setTitle(tr("Measured tax (A/B)<br><small>%1</small>").arg(sub));
    setPlaceholder(estimate.isEmpty() ? whyNone : QString());
}

} // namespace synctax
