#include "ui/charts/chartstyle.h"

#include "core/config/stylecatalog.h"
#include "ui/charts/axisrange.h"

#include <QCategoryAxis>
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
    // One colour per style of the catalog after the baseline, in its order, chosen from Kelly's and
    // Paul Tol's palettes to lie far apart in CIELAB (a distance of 35 or more between any two, the
    // baseline's black and the control's grey included) and dark enough to read on white.
    static const std::array<QColor, 11> palette {
        QColor(0x0077bb), // item: blue
        QColor(0x66ccee), // item_every_n: cyan
        QColor(0x228833), // gpu_accumulate: green
        QColor(0xccbb44), // progress_bar: olive
        QColor(0xf38400), // progress_bar_postfix: orange
        QColor(0x882d17), // progress_bar_postfix_every_n: brown
        QColor(0xee3377), // print_every_step: magenta
        QColor(0xff9da7), // writer_flush_every_step: pink
        QColor(0x332288), // metrics_item_each: indigo
        QColor(0x875692), // metrics_stacked: purple
        QColor(0x009988), // deferred_async: teal
    };
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
    if (auto* category = qobject_cast<QCategoryAxis*>(axis)) {
        // Labels written here at k * step: Qt's dynamic ticks add the step to the first tick, so
        // that 0 can come out as -5.55112e-17.
        for (const QString& label : category->categoriesLabels())
            category->remove(label);
        category->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        const int decimals = std::max(0, int(std::ceil(-std::log10(step) - 1e-9)));
        const auto first = static_cast<long long>(std::ceil(low / step - 1e-9));
        const auto last = static_cast<long long>(std::floor(high / step + 1e-9));
        category->setStartValue(double(first - 1) * step);
        for (long long k = first; k <= last; ++k) {
            const QString label = k == 0 ? QStringLiteral("0") : QString::number(double(k) * step, 'f', decimals);
            category->append(label, double(k) * step);
        }
        axis->setRange(low, high);
        return;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(low, high);
}

void addStepAxes(QChart* chart, QValueAxis* x, const QString& xTitle, QValueAxis* y, const QString& yTitle)
{
    x->setTitleText(xTitle);
    x->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(yTitle);
    y->setLabelFormat(QStringLiteral("%g"));
    setNiceRange(x, 0, 1, false, 1);
    setNiceRange(y, 0, 1, true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
}

} // namespace synctax
