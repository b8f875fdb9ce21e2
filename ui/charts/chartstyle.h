#pragma once

#include <QColor>
#include <QPen>
#include <QString>

class QValueAxis;

namespace synctax {

// How a logging style is drawn in every chart: the baseline thick and near black, the A/A control
// grey and dashed, every other style a thin line in a colour of its own that stays the same
// from chart to chart.
QColor styleColor(const QString& style);
QPen stylePen(const QString& style);

// Shows [low, high] with ticks at round numbers anchored at zero (no 0.918, 1.84...). With
// `roundOutward` the ends move out to the nearest ticks. `smallest` bounds the tick spacing from
// below (1 for axes that count whole steps).
void setNiceRange(QValueAxis* axis, double low, double high, bool roundOutward, double smallest = 0);

} // namespace synctax
