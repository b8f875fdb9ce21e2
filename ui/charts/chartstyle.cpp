#include "ui/charts/chartstyle.h"

#include "core/config/stylecatalog.h"
#include "ui/charts/axisrange.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <cmath>

#include <array>

namespace synctax {

QColor groupColor(int index)
{
    static const std::array<QColor, 6> palette { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xb07aa1),
        QColor(0x9c755f), QColor(0xe15759) };
    return palette[size_t(index) % palette.size()];
}

void hideFromLegend(QChart* chart, QAbstractSeries* series)
{
    for (QLegendMarker* marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

QLineSeries* whiskerSeries(double x, double low, double high, double cap, const QColor& color)
{
    auto* whisker = new QLineSeries;
    whisker->append({ QPointF(x - cap, low), QPointF(x + cap, low), QPointF(x, low), QPointF(x, high),
        QPointF(x - cap, high), QPointF(x + cap, high) });
    whisker->setPen(QPen(color, 1.5));
    return whisker;
}

QColor styleColor(const QString& style)
{
    if (style == QLatin1String(baselineStyle()))
        return QColor(20, 20, 20);
    if (style == QLatin1String(aaControlStyle()) || style == QLatin1String(observerControlStyle()))
        return QColor(130, 130, 130);
    // Tableau 10 plus two: distinct for the catalog's eleven non-baseline styles.
    static const std::array<QColor, 12> palette { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759),
        QColor(0x76b7b2), QColor(0x59a14f), QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7), QColor(0x9c755f),
        QColor(0x499894), QColor(0x86bcb6), QColor(0xd37295) };
    const std::string name = style.toStdString();
    const auto& catalog = styleCatalog();
    // The catalog starts with the baseline, which has its own colour.
    for (size_t i = 1; i < catalog.size(); ++i) {
        if (catalog[i].name == name)
            return palette[(i - 1) % palette.size()];
    }
    return palette[qHash(style) % palette.size()];
}

QPen stylePen(const QString& style)
{
    QPen pen(styleColor(style));
    if (style == QLatin1String(baselineStyle())) {
        pen.setWidthF(2.6);
    } else if (style == QLatin1String(aaControlStyle())) {
        pen.setWidthF(1.2);
        pen.setStyle(Qt::DashLine);
    } else if (style == QLatin1String(observerControlStyle())) {
        pen.setWidthF(1.2);
        pen.setStyle(Qt::DotLine);
    } else {
        QColor lighter = pen.color();
        lighter.setAlpha(200);
        pen.setColor(lighter);
        pen.setWidthF(1.2);
    }
    return pen;
}

void setNiceRange(QValueAxis* axis, double low, double high, bool roundOutward, double smallest)
{
    if (!(high > low))
        high = low + std::max(1.0, smallest);
    const double step = niceTickStep(high - low, 6, smallest);
    if (roundOutward) {
        low = std::floor(low / step + 1e-9) * step;
        high = std::ceil(high / step - 1e-9) * step;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(low, high);
}

} // namespace synctax
