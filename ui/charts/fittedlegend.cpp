#include "ui/charts/fittedlegend.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

constexpr qreal swatchWidth = 18; // the line's sample, before its name
constexpr qreal swatchGap = 5;
constexpr qreal entryGap = 12; // between columns, or between entries of a row
constexpr qreal outerGap = 8; // between the plot and the legend, and after it
constexpr int chartMargin = 6; // ChartPanel's margin on every side

} // namespace

FittedLegend::FittedLegend(QChart* chart, Qt::Alignment side)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_side(side)
    , m_font(chart->legend()->font())
{
    setZValue(10);
}

void FittedLegend::setEntries(std::vector<Entry> entries)
{
    m_entries = std::move(entries);
    layOut();
}

void FittedLegend::setFont(const QFont& font)
{
    m_font = font;
    layOut();
}

qreal FittedLegend::lineHeight() const { return std::ceil(QFontMetricsF(m_font).height() * 1.3); }

qreal FittedLegend::entryWidth(size_t entry) const
{
    return swatchWidth + swatchGap + std::ceil(QFontMetricsF(m_font).horizontalAdvance(m_entries[entry].label)) + 1;
}

QSizeF FittedLegend::placeInColumns(qreal height)
{
    const qreal line = lineHeight();
    const size_t rows = size_t(std::max(1.0, std::floor(height / line)));
    qreal x = 0;
    for (size_t first = 0; first < m_entries.size(); first += rows) {
        const size_t last = std::min(m_entries.size(), first + rows);
        qreal widest = 0;
        for (size_t i = first; i < last; ++i)
            widest = std::max(widest, entryWidth(i));
        if (first > 0)
            x += entryGap;
        for (size_t i = first; i < last; ++i)
            m_labelRects[i]
                = QRectF(x + swatchWidth + swatchGap, qreal(i - first) * line, widest - swatchWidth - swatchGap, line);
        x += widest;
    }
    return { x, qreal(std::min(rows, m_entries.size())) * line };
}

QSizeF FittedLegend::placeInRows(qreal width)
{
    const qreal line = lineHeight();
    qreal x = 0;
    qreal y = 0;
    qreal widest = 0;
    for (size_t i = 0; i < m_entries.size(); ++i) {
        // A name wider than the chart keeps a row of its own; it is not cut.
        const qreal w = entryWidth(i);
        if (x > 0 && x + entryGap + w > width) {
            x = 0;
            y += line;
        } else if (x > 0) {
            x += entryGap;
        }
        m_labelRects[i] = QRectF(x + swatchWidth + swatchGap, y, w - swatchWidth - swatchGap, line);
        x += w;
        widest = std::max(widest, x);
    }
    return { widest, m_entries.empty() ? 0 : y + line };
}

void FittedLegend::layOut()
{
    prepareGeometryChange();
    m_labelRects.assign(m_entries.size(), QRectF());
    const QMargins margins = m_chart->margins();
    const QSizeF chart = m_chart->size();
    const QRectF plot = m_chart->plotArea();
    QMargins wanted(chartMargin, chartMargin, chartMargin, chartMargin);
    QPointF at;
    if (m_side == Qt::AlignBottom) {
        const QSizeF size = placeInRows(chart.width() - 2 * chartMargin);
        m_bounds = QRectF(QPointF(0, 0), size);
        if (!m_entries.empty())
            wanted.setBottom(int(std::ceil(size.height() + 2 * outerGap)));
        at = QPointF((chart.width() - size.width()) / 2, chart.height() - wanted.bottom() + outerGap);
    } else {
        const qreal top = plot.isEmpty() ? margins.top() : plot.top();
        const QSizeF size = placeInColumns(chart.height() - chartMargin - top);
        m_bounds = QRectF(QPointF(0, 0), size);
        if (!m_entries.empty())
            wanted.setRight(int(std::ceil(size.width() + 2 * outerGap)));
        at = QPointF(chart.width() - wanted.right() + outerGap, top);
    }
    if (margins != wanted) {
        m_chart->setMargins(wanted);
        // Laid out now: an export draws the scene straight after adapting it.
        if (QGraphicsLayout* layout = m_chart->layout())
            layout->activate();
    }
    setPos(at);
    update();
}

QRectF FittedLegend::labelSceneRect(int entry) const { return mapRectToScene(m_labelRects.at(size_t(entry))); }

void FittedLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->save();
    painter->setFont(m_font);
    for (size_t i = 0; i < m_entries.size(); ++i) {
        const QRectF text = m_labelRects[i];
        const qreal y = text.center().y();
        QPen pen = m_entries[i].pen;
        pen.setWidthF(std::max(pen.widthF(), 2.0));
        painter->setPen(pen);
        painter->drawLine(QPointF(text.left() - swatchGap - swatchWidth, y), QPointF(text.left() - swatchGap, y));
        painter->setPen(m_chart->legend()->labelColor());
        painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, m_entries[i].label);
    }
    painter->restore();
}

} // namespace synctax
