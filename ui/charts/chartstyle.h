#pragma once

#include <QColor>
#include <QPen>
#include <QString>

class QAbstractSeries;
class QChart;
class QLineSeries;
class QValueAxis;

namespace synctax {

// How a logging style is drawn in every chart: the baseline thick and near black, the A/A control
// grey and dashed, every other style a thin line in a colour of its own that stays the same
// from chart to chart.
QColor styleColor(const QString& style);
QPen stylePen(const QString& style);

// The colour of the index-th of several things drawn side by side that are not styles (the models
// of the overhead chart, the curves of one style in the host-work chart): six, then again.
QColor groupColor(int index);

// Drawn without an entry in the legend: whiskers, bands and reference lines that a title explains.
void hideFromLegend(QChart* chart, QAbstractSeries* series);

// A 95% interval as drawn at x: one polyline, bottom cap, up the middle, top cap (caps `cap` wide
// on each side), in `color`. The caller adds it to its chart.
QLineSeries* whiskerSeries(double x, double low, double high, double cap, const QColor& color);

// Shows [low, high] with ticks at round numbers anchored at zero (no 0.918, 1.84...). With
// `roundOutward` the ends move out to the nearest ticks. `smallest` bounds the tick spacing from
// below (1 for axes that count whole steps). A QCategoryAxis gets its labels written at those
// ticks (an axis whose ticks can fall on both sides of zero: Qt's own labels can read -5.55e-17).
void setNiceRange(QValueAxis* axis, double low, double high, bool roundOutward, double smallest = 0);

// The axes of a chart of steps against time: `x` counts whole steps along the bottom, `y` (from 0)
// up the left, each with its title, both added to the chart.
void addStepAxes(QChart* chart, QValueAxis* x, const QString& xTitle, QValueAxis* y, const QString& yTitle);

} // namespace synctax
