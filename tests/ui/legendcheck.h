#pragma once

#include "ui/charts/fittedlegend.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QStringList>

// What a reader of a chart's legend cannot read: an entry cut by the legend's or the chart's edge,
// elided ("lag: launch ahead of its GP…"), drawn over the plot or another entry, or two entries that
// read the same. Empty when every entry is whole and tells its series apart. Qt Charts' own legend
// where it is shown, else the chart's FittedLegend. Call on a chart that is shown and laid out.
inline QStringList legendProblems(QChartView& view)
{
    QStringList problems;
    QChart* chart = view.chart();
    const auto checkLabel = [&](const QString& label, const QRectF& rect, const QRectF& area, QStringList& shown) {
        if (label.contains(QChar(0x2026)) || label.contains(QLatin1String("...")))
            problems << QStringLiteral("'%1' is elided").arg(label);
        else if (!area.contains(rect))
            problems << QStringLiteral("'%1' is cut by the legend's edge").arg(label);
        else if (shown.contains(label))
            problems << QStringLiteral("'%1' is in the legend twice").arg(label);
        shown << label;
    };
    QStringList shown;
    if (chart->legend()->isVisible()) {
        const QRectF area = chart->legend()->sceneBoundingRect().adjusted(-0.5, -0.5, 0.5, 0.5);
        QList<QGraphicsItem*> items = chart->legend()->childItems();
        while (!items.isEmpty()) {
            QGraphicsItem* item = items.takeFirst();
            items << item->childItems();
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (text && text->isVisible() && !text->toPlainText().isEmpty())
                checkLabel(text->toPlainText(), text->sceneBoundingRect(), area, shown);
        }
        int visibleMarkers = 0;
        for (QLegendMarker* marker : chart->legend()->markers())
            visibleMarkers += marker->isVisible() ? 1 : 0;
        if (shown.size() != visibleMarkers)
            problems << QStringLiteral("%1 labels drawn for %2 entries").arg(shown.size()).arg(visibleMarkers);
        return problems;
    }
    const synctax::FittedLegend* legend = nullptr;
    for (QGraphicsItem* item : chart->childItems()) {
        if (auto* found = dynamic_cast<const synctax::FittedLegend*>(item))
            legend = found;
    }
    if (!legend)
        return problems;
    const QRectF area = chart->sceneBoundingRect().adjusted(-0.5, -0.5, 0.5, 0.5);
    const QRectF plot = chart->mapRectToScene(chart->plotArea());
    std::vector<QRectF> drawn;
    for (int i = 0; i < legend->entryCount(); ++i) {
        const QRectF rect = legend->labelSceneRect(i);
        checkLabel(legend->label(i), rect, area, shown);
        if (rect.intersects(plot))
            problems << QStringLiteral("'%1' is drawn over the plot").arg(legend->label(i));
        for (const QRectF& other : drawn) {
            if (rect.intersects(other))
                problems << QStringLiteral("'%1' overlaps another entry").arg(legend->label(i));
        }
        drawn.push_back(rect);
    }
    return problems;
}
