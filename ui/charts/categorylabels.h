#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QStringList>

namespace synctax {

// Category labels that Qt Charts draws whole. It cuts a label wider than its category ("progr...");
// these are names broken after underscores into lines that fit, in slightly smaller type where a
// word alone is too wide, and turned upright as the last resort.
struct CategoryLabels {
    QStringList labels; // rich text: the name's lines joined by <br>, so without them each reads as the name
    QFont font;
    int angle = 0;
};

// `categoryWidth`: what Qt Charts allows one label, the plot width over the number of categories
// less its label padding on both sides.
CategoryLabels fitCategoryLabels(const QStringList& names, const QFont& font, qreal categoryWidth);

// `name`'s lines, broken after underscores, each no wider than `width` where its words allow.
QStringList wrapAtUnderscores(const QString& name, const QFontMetricsF& metrics, qreal width);

} // namespace synctax
