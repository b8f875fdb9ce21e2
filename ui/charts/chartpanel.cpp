#include "ui/charts/chartpanel.h"

#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextDocumentFragment>

namespace synctax {

ChartPanel::ChartPanel(QWidget* parent)
    : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 240);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(QMargins(6, 6, 6, 6));
    QFont titleFont = c->titleFont();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    c->setTitleFont(titleFont);
    c->legend()->setAlignment(Qt::AlignBottom);
    // Queued: the plot area changes while the chart is being laid out, which adapting re-enters.
    connect(
        c, &QChart::plotAreaChanged, this, [this] { adaptToPlotArea(); }, Qt::QueuedConnection);
}

void ChartPanel::setPlaceholder(const QString& text)
{
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    viewport()->update();
}

int ChartPanel::plotWidthPixels() const
{
    const qreal plotWidth = chart()->plotArea().width();
    if (plotWidth >= 1)
        return int(plotWidth);
    return std::max(1, viewport()->width());
}

void ChartPanel::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    paintPlaceholder(painter, chart()->plotArea());
}

void ChartPanel::paintPlaceholder(QPainter* painter, const QRectF& plotArea) const
{
    if (m_placeholder.isEmpty() || plotArea.isEmpty())
        return;
    painter->save();
    QFont font = chart()->titleFont();
    font.setBold(false);
    painter->setFont(font);
    const QRectF box = plotArea.adjusted(plotArea.width() * 0.1, 0, -plotArea.width() * 0.1, 0);
    const QRectF textRect = painter->boundingRect(box, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(255, 255, 255, 230));
    painter->drawRoundedRect(textRect.adjusted(-12, -8, 12, 8), 6, 6);
    painter->setPen(QColor(90, 90, 90));
    painter->drawText(box, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
    painter->restore();
}

void ChartPanel::renderChart(QPainter* painter, QSize size)
{
    // The chart is laid out again at the export size (synchronously, through its layout), so an
    // export does not depend on how large the window happens to be.
    const QSizeF screenSize = chart()->size();
    chart()->resize(size);
    adaptToPlotArea();
    const QRectF source(chart()->pos(), QSizeF(size));
    const QRectF target(QPointF(0, 0), QSizeF(size));
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    scene()->render(painter, target, source);
    paintPlaceholder(painter, chart()->plotArea().translated(-chart()->pos()));
    chart()->resize(screenSize);
    adaptToPlotArea();
}

QImage ChartPanel::renderImage(QSize size, qreal scale)
{
    if (size.isEmpty() || scale <= 0)
        return {};
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    // Fonts are sized in points: give the image the screen's dots per inch so the text measures
    // as the chart's layout expects.
    image.setDotsPerMeterX(qRound(logicalDpiX() / 0.0254));
    image.setDotsPerMeterY(qRound(logicalDpiY() / 0.0254));
    image.fill(Qt::white);
    QPainter painter(&image);
    renderChart(&painter, size);
    painter.end();
    return image;
}

bool ChartPanel::exportPng(const QString& path, QSize size, qreal scale)
{
    const QImage image = renderImage(size, scale);
    return !image.isNull() && image.save(path, "PNG");
}

QString ChartPanel::plainTitle() const
{
    // Titles may hold rich text (a subtitle in <small>); file metadata takes plain text.
    return QTextDocumentFragment::fromHtml(chart()->title()).toPlainText().simplified();
}

bool ChartPanel::exportSvg(const QString& path, QSize size)
{
    if (size.isEmpty())
        return false;
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(logicalDpiX());
    generator.setTitle(plainTitle());
    generator.setDescription(QStringLiteral("SyncTax chart"));
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    renderChart(&painter, size);
    return painter.end() && QFileInfo(path).size() > 0;
}

bool ChartPanel::exportPdf(const QString& path)
{
    const QSize size = defaultExportSize();
    QPdfWriter writer(path);
    // At the screen's resolution a point measures what it measures on screen, so the page holds
    // the chart exactly, text included.
    const int dpi = logicalDpiX();
    writer.setResolution(dpi);
    writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / dpi, QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(plainTitle());
    writer.setCreator(QStringLiteral("SyncTax"));
    QPainter painter;
    if (!painter.begin(&writer))
        return false;
    painter.setWindow(QRect(QPoint(0, 0), size));
    renderChart(&painter, size);
    return painter.end();
}

void ChartPanel::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Export PNG…"), this, [this] { exportWithDialog(QStringLiteral("png")); });
    menu.addAction(tr("Export SVG…"), this, [this] { exportWithDialog(QStringLiteral("svg")); });
    menu.addAction(tr("Export PDF…"), this, [this] { exportWithDialog(QStringLiteral("pdf")); });
    menu.exec(event->globalPos());
}

void ChartPanel::exportWithDialog(const QString& format)
{
    QString name = chart()->title().toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.section(QLatin1Char('-'), 0, -1, QString::SectionSkipEmpty);
    if (name.isEmpty())
        name = QStringLiteral("chart");
    const QString suggested = QDir::home().filePath(name + QLatin1Char('.') + format);
    const QString filter = tr("%1 files (*.%2)").arg(format.toUpper(), format);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), suggested, filter);
    if (path.isEmpty())
        return;
    bool ok = false;
    if (format == QLatin1String("png"))
        ok = exportPng(path);
    else if (format == QLatin1String("svg"))
        ok = exportSvg(path);
    else
        ok = exportPdf(path);
    if (!ok)
        QMessageBox::warning(this, tr("Export chart"), tr("Could not write %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace synctax
