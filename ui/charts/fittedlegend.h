#pragma once

#include <QFont>
#include <QGraphicsObject>
#include <QPen>
#include <QRectF>
#include <QString>

#include <vector>

class QChart;

namespace synctax {

// A chart's legend whose every entry is drawn whole: in columns in the chart's right margin (as many
// entries under one another as the chart's height holds, then the next column), or in rows under the
// plot (as many side by side as its width holds, then the next row). Qt Charts' own legend keeps to
// one column or row, and cuts or elides what does not fit: the last of thirteen styles on a short
// dock, "lag: launch ahead of its GP…" in a narrow one. Drawn in the chart's scene, so exports draw
// it too; the chart's own legend is hidden.
class FittedLegend : public QGraphicsObject {
    Q_OBJECT
public:
    struct Entry {
        QString label;
        QPen pen;
    };

    // `side`: Qt::AlignRight (columns) or Qt::AlignBottom (rows).
    FittedLegend(QChart* chart, Qt::Alignment side);

    void setEntries(std::vector<Entry> entries);
    void setFont(const QFont& font);
    // Lays the entries out for the chart's size, and gives the chart the margin that holds them.
    void layOut();

    int entryCount() const { return int(m_entries.size()); }
    QString label(int entry) const { return m_entries.at(size_t(entry)).label; }
    // Where each entry's text is drawn, in scene coordinates.
    QRectF labelSceneRect(int entry) const;

    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    // Each entry's text in the legend's own coordinates; returns the legend's size.
    QSizeF placeInColumns(qreal height);
    QSizeF placeInRows(qreal width);
    qreal entryWidth(size_t entry) const;
    qreal lineHeight() const;

    QChart* m_chart;
    Qt::Alignment m_side;
    std::vector<Entry> m_entries;
    std::vector<QRectF> m_labelRects;
    QFont m_font;
    QRectF m_bounds;
};

} // namespace synctax
