#pragma once

#include <QChartView>
#include <QImage>
#include <QSize>
#include <QString>

namespace synctax {

// The base of every SyncTax chart: an antialiased raster view (no OpenGL series, so exports and
// offscreen tests draw the same thing), exports to PNG, SVG and PDF from code or from its
// right-click menu, and a placeholder line shown instead of data that cannot exist here.
class ChartPanel : public QChartView {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);

    // The size charts are exported at from the context menu: a 16:9-ish slide.
    static QSize defaultExportSize() { return QSize(1200, 700); }

    // `size` in logical pixels; `scale` multiplies the pixels (2: crisp on a slide or HiDPI screen).
    bool exportPng(const QString& path, QSize size = defaultExportSize(), qreal scale = 2.0);
    // The chart drawn at `size` (layout units) into an image `scale` times larger; null when size is empty.
    QImage renderImage(QSize size = defaultExportSize(), qreal scale = 2.0);
    QString plainTitle() const;
    bool exportSvg(const QString& path, QSize size = defaultExportSize());
    // One page the size of defaultExportSize(), vector text and lines.
    bool exportPdf(const QString& path);

    // Drawn over the plot area while not empty; subclasses set it when they have nothing to show.
    void setPlaceholder(const QString& text);
    // What a chart of per-step data says when it has no history to show (the default: "No run yet.").
    void setNoHistoryText(const QString& text) { m_noHistoryText = text; }
    QString noHistoryText() const { return m_noHistoryText; }
    QString placeholder() const { return m_placeholder; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

    // How many pixels wide the plot is, for downsampling: at least 1.
    int plotWidthPixels() const;
    // Called once the chart is laid out at a new size, on screen or for an export: what depends on
    // the plot area's size (labels that must fit their categories) adapts here.
    virtual void adaptToPlotArea() { }

private:
    // Lays the chart out at `size`, draws it into `painter` (whose window is that size), then puts
    // it back as it is on screen.
    void renderChart(QPainter* painter, QSize size);
    void paintPlaceholder(QPainter* painter, const QRectF& plotArea) const;
    void exportWithDialog(const QString& format);

    QString m_placeholder;
    QString m_noHistoryText = tr("No run yet.");
};

} // namespace synctax
