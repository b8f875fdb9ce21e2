#include "ui/charts/categorylabels.h"

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

// Qt Charts measures a label as a text item with a half-pixel document margin on each side and
// rounds positions to whole pixels; this much slack keeps a label that just fits from being cut.
constexpr qreal slackPixels = 3;

qreal lineWidth(const QFontMetricsF& metrics, const QString& line)
{
    return metrics.horizontalAdvance(line) + slackPixels;
}

// The words of a name, each but the last keeping its underscore: "progress_", "bar", so that the
// lines put together read as the name.
QStringList words(const QString& name)
{
    QStringList parts = name.split(QLatin1Char('_'));
    for (int i = 0; i + 1 < parts.size(); ++i)
        parts[i] += QLatin1Char('_');
    return parts;
}

qreal widestWord(const QStringList& names, const QFontMetricsF& metrics)
{
    qreal widest = 0;
    for (const QString& name : names)
        for (const QString& word : words(name))
            widest = std::max(widest, lineWidth(metrics, word));
    return widest;
}

QStringList joined(const QStringList& names, const QFontMetricsF& metrics, qreal width)
{
    QStringList labels;
    for (const QString& name : names)
        labels << wrapAtUnderscores(name, metrics, width).join(QStringLiteral("<br>"));
    return labels;
}

} // namespace

QStringList wrapAtUnderscores(const QString& name, const QFontMetricsF& metrics, qreal width)
{
    QStringList lines;
    for (const QString& word : words(name)) {
        if (!lines.isEmpty() && lineWidth(metrics, lines.last() + word) <= width)
            lines.last() += word;
        else
            lines << word;
    }
    return lines;
}

CategoryLabels fitCategoryLabels(const QStringList& names, const QFont& font, qreal categoryWidth)
{
    CategoryLabels fit;
    fit.font = font;
    // Level first, in the axis's own type or up to 1.5 points smaller, when every word fits.
    for (qreal shrink : { 0.0, 1.0, 1.5 }) {
        fit.font.setPointSizeF(font.pointSizeF() - shrink);
        const QFontMetricsF metrics(fit.font);
        if (widestWord(names, metrics) <= categoryWidth) {
            fit.labels = joined(names, metrics, categoryWidth);
            return fit;
        }
    }
    // Upright, a label is as wide as its lines are high: the fewest lines that fit, each as short
    // as that allows, in the type that makes the tallest label shortest, so the plot keeps its height.
    qreal shortest = 0;
    for (qreal shrink : { 0.0, 1.0, 1.5 }) {
        QFont smaller = font;
        smaller.setPointSizeF(font.pointSizeF() - shrink);
        const QFontMetricsF metrics(smaller);
        const int maxLines = std::max(1, int(std::floor((categoryWidth - slackPixels) / metrics.lineSpacing())));
        QStringList labels;
        qreal tallest = 0;
        for (const QString& name : names) {
            const qreal full = lineWidth(metrics, name);
            qreal width = std::min(full, widestWord({ name }, metrics));
            QStringList lines = wrapAtUnderscores(name, metrics, width);
            while (lines.size() > maxLines && width < full) {
                width = std::min(full, width + metrics.averageCharWidth() * 2);
                lines = wrapAtUnderscores(name, metrics, width);
            }
            for (const QString& line : lines)
                tallest = std::max(tallest, lineWidth(metrics, line));
            labels << lines.join(QStringLiteral("<br>"));
        }
        if (fit.labels.isEmpty() || tallest < shortest) {
            shortest = tallest;
            fit.labels = labels;
            fit.font = smaller;
            fit.angle = -90;
        }
    }
    return fit;
}

} // namespace synctax
