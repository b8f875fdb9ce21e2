#include "ui/teach/regimeheatmap.h"

#include "core/queuemodel/regime.h"
#include "core/queuemodel/taxestimate.h"

#include <QElapsedTimer>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>

namespace synctax {

namespace {

constexpr double maxHostWorkMs = 10;
constexpr double scaleTopPct = 100; // the colour saturates here: a sync that doubles the step
constexpr int64_t cellBlockSteps = 10;
constexpr size_t cacheLimit = 16;

QColor taxColor(double pct)
{
    const double f = std::clamp(pct / scaleTopPct, 0.0, 1.0);
    return QColor::fromRgbF(1.0 - 0.2 * f, 1.0 - 0.85 * f, 1.0 - 0.85 * f);
}

} // namespace

RegimeHeatmap::RegimeHeatmap(QWidget* parent)
    : QWidget(parent)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(50);
    connect(&m_debounce, &QTimer::timeout, this, &RegimeHeatmap::recompute);
    setMinimumSize(minimumSizeHint());
}

double RegimeHeatmap::ratioAt(int column) { return std::pow(10.0, -1.0 + 2.0 * column / (columns - 1)); }

double RegimeHeatmap::hostWorkMsAt(int row) { return maxHostWorkMs * row / (rows - 1); }

double RegimeHeatmap::taxAt(int column, int row) const
{
    if (m_grid.empty() || column < 0 || column >= columns || row < 0 || row >= rows)
        return std::numeric_limits<double>::quiet_NaN();
    return m_grid[size_t(row) * columns + size_t(column)];
}

QString RegimeHeatmap::cacheKey() const
{
    return QStringLiteral("%1/%2/%3/%4").arg(m_model.dMs).arg(m_model.lUs).arg(m_model.k).arg(m_model.queueCapacity);
}

void RegimeHeatmap::setModel(const QueueModel& model)
{
    m_model = model;
    m_subtitle.clear();
    const auto cached = m_cache.constFind(cacheKey());
    if (cached != m_cache.constEnd()) {
        m_debounce.stop();
        m_grid = *cached;
    } else {
        m_debounce.start();
    }
    update();
}

void RegimeHeatmap::flush()
{
    if (m_debounce.isActive()) {
        m_debounce.stop();
        recompute();
    }
}

std::vector<double> RegimeHeatmap::computeGrid(const std::function<double(double ratio, double hostWorkMs)>& taxAt)
{
    std::vector<double> grid(size_t(rows * columns));
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column)
            grid[size_t(row) * columns + size_t(column)] = taxAt(ratioAt(column), hostWorkMsAt(row));
    }
    return grid;
}

void RegimeHeatmap::recompute()
{
    QElapsedTimer clock;
    clock.start();
    std::vector<double> grid = computeGrid([this](double ratio, double hostWorkMs) {
        QueueModel cell = m_model;
        cell.hUs = hostWorkMs * 1e3;
        cell.gMs = ratio * (cell.dMs + hostWorkMs);
        return estimateSyncTax(cell, 1, cellBlockSteps).taxPct;
    });
    if (m_cache.size() >= qsizetype(cacheLimit))
        m_cache.clear();
    m_cache.insert(cacheKey(), grid);
    m_grid = std::move(grid);
    m_lastComputeMs = double(clock.nsecsElapsed()) * 1e-6;
    update();
}

void RegimeHeatmap::showGrid(const QueueModel& model, std::vector<double> grid, const QString& subtitle)
{
    m_debounce.stop();
    m_model = model;
    m_grid = std::move(grid);
    m_subtitle = subtitle;
    update();
}

void RegimeHeatmap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QFontMetricsF metrics(font());
    const double line = metrics.height();

    const QRectF all = QRectF(rect()).adjusted(8, 6, -8, -6);
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    p.setFont(bold);
    p.setPen(palette().text().color());
    p.drawText(QRectF(all.left(), all.top(), all.width(), line * 1.3), Qt::AlignHCenter | Qt::AlignTop,
        tr("Tax of item (sync every step): the middle regime"));
    p.setFont(font());
    const QString subtitle = !m_subtitle.isEmpty() ? m_subtitle
                                                   : tr("D = %1 ms, L = %2 µs, K = %3, Q = %4")
                                                         .arg(m_model.dMs, 0, 'g', 3)
                                                         .arg(m_model.lUs, 0, 'g', 3)
                                                         .arg(m_model.k)
                                                         .arg(m_model.queueCapacity);
    p.drawText(QRectF(all.left(), all.top() + line * 1.3, all.width(), line), Qt::AlignHCenter | Qt::AlignTop,
        metrics.elidedText(subtitle, Qt::ElideRight, all.width()));

    const double legendWidth = 70;
    const QRectF grid(
        all.left() + line * 1.6 + metrics.horizontalAdvance(QStringLiteral("10")) + 8, all.top() + line * 3.6, 0, 0);
    QRectF plot(
        grid.left(), grid.top(), all.right() - legendWidth - 10 - grid.left(), all.bottom() - line * 2.4 - grid.top());
    const double cellWidth = plot.width() / columns;
    const double cellHeight = plot.height() / rows;

    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    const bool labels = cellWidth >= QFontMetricsF(small).horizontalAdvance(QStringLiteral("100")) + 2
        && cellHeight >= QFontMetricsF(small).height();
    p.setFont(small);
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            const QRectF cell(
                plot.left() + column * cellWidth, plot.bottom() - (row + 1) * cellHeight, cellWidth, cellHeight);
            const double tax = taxAt(column, row);
            p.fillRect(cell.adjusted(0, 0, 0.5, 0.5), std::isnan(tax) ? QColor(0xee, 0xee, 0xee) : taxColor(tax));
            if (labels && !std::isnan(tax)) {
                p.setPen(tax > 60 ? Qt::white : QColor(0x40, 0x40, 0x40));
                p.drawText(cell, Qt::AlignCenter, QString::number(tax, 'f', 0));
            }
        }
    }
    p.setFont(font());
    p.setPen(QPen(palette().mid().color(), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    if (!isComputed()) {
        p.setPen(palette().text().color());
        p.drawText(plot, Qt::AlignCenter, tr("computing…"));
    }

    const auto xOfRatio = [&](double ratio) {
        return plot.left() + (std::log10(ratio) + 1.0) / 2.0 * (columns - 1) * cellWidth + cellWidth / 2;
    };
    const auto yOfHostWork
        = [&](double ms) { return plot.bottom() - (ms / maxHostWorkMs * (rows - 1) + 0.5) * cellHeight; };

    // The balanced band of core/queuemodel/regime.h: G and D + H within balancedBand of each other.
    p.setPen(QPen(QColor(0x30, 0x30, 0x30), 1, Qt::DashLine));
    for (double ratio : { 1 / balancedBand, balancedBand })
        p.drawLine(QPointF(xOfRatio(ratio), plot.top()), QPointF(xOfRatio(ratio), plot.bottom()));
    p.setFont(small);
    p.drawText(QRectF(xOfRatio(1 / balancedBand) - 60, plot.top() - line,
                   120 + xOfRatio(balancedBand) - xOfRatio(1 / balancedBand), line),
        Qt::AlignHCenter | Qt::AlignBottom, tr("balanced"));
    p.drawText(
        QRectF(plot.left() + 2, plot.top() - line, 200, line), Qt::AlignLeft | Qt::AlignBottom, tr("← dispatch-bound"));
    p.drawText(
        QRectF(plot.right() - 202, plot.top() - line, 200, line), Qt::AlignRight | Qt::AlignBottom, tr("GPU-bound →"));
    p.setFont(font());

    p.setPen(palette().text().color());
    for (double ratio : { 0.1, 0.3, 1.0, 3.0, 10.0 }) {
        const double x = xOfRatio(ratio);
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        p.drawText(QRectF(x - 30, plot.bottom() + 4, 60, line), Qt::AlignHCenter | Qt::AlignTop,
            QString::number(ratio, 'g', 2));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 4 + line, plot.width(), line), Qt::AlignHCenter | Qt::AlignTop,
        tr("G / (D + H): GPU time over host time per step (log)"));
    for (int ms = 0; ms <= int(maxHostWorkMs); ms += 2) {
        const double y = yOfHostWork(ms);
        p.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
        p.drawText(
            QRectF(plot.left() - 50, y - line / 2, 44, line), Qt::AlignRight | Qt::AlignVCenter, QString::number(ms));
    }
    p.save();
    p.translate(all.left() + line * 0.2, plot.center().y());
    p.rotate(-90);
    p.drawText(
        QRectF(-plot.height() / 2, 0, plot.height(), line), Qt::AlignCenter, tr("H: other host work per step (ms)"));
    p.restore();

    // The model's own point; clamped to the edge when it lies off the map.
    const double hostMs = m_model.hUs * 1e-3;
    const double ratio = m_model.gMs / std::max(1e-9, m_model.dMs + hostMs);
    const double cx = std::clamp(xOfRatio(std::clamp(ratio, 1e-6, 1e6)), plot.left(), plot.right());
    const double cy = std::clamp(yOfHostWork(hostMs), plot.top(), plot.bottom());
    for (const auto& [width, color] :
        { std::pair<double, QColor>(5, Qt::white), std::pair<double, QColor>(2.5, Qt::black) }) {
        p.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(cx - 8, cy - 8), QPointF(cx + 8, cy + 8));
        p.drawLine(QPointF(cx - 8, cy + 8), QPointF(cx + 8, cy - 8));
    }

    const QRectF legend(all.right() - legendWidth + 8, plot.top() + line * 1.8, 16, plot.height() - line * 1.8);
    QLinearGradient gradient(legend.bottomLeft(), legend.topLeft());
    gradient.setColorAt(0, taxColor(0));
    gradient.setColorAt(1, taxColor(scaleTopPct));
    p.fillRect(legend, gradient);
    p.setPen(palette().mid().color());
    p.drawRect(legend);
    p.setPen(palette().text().color());
    p.drawText(QRectF(legend.left() - 4, plot.top(), legendWidth, line), Qt::AlignLeft | Qt::AlignTop, tr("tax (%)"));
    for (int pct = 0; pct <= int(scaleTopPct); pct += 25) {
        const double y = legend.bottom() - legend.height() * pct / scaleTopPct;
        p.drawLine(QPointF(legend.right(), y), QPointF(legend.right() + 4, y));
        p.drawText(QRectF(legend.right() + 6, y - line / 2, 50, line), Qt::AlignLeft | Qt::AlignVCenter,
            pct == int(scaleTopPct) ? tr("≥%1").arg(pct) : QString::number(pct));
    }
}

} // namespace synctax
