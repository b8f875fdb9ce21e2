#include "ui/charts/phasestepchart.h"

#include "ui/charts/axisrange.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"
#include "ui/charts/fittedlegend.h"

#include <QColor>
#include <QGraphicsItem>
#include <QImage>
#include <QLegend>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace synctax {

namespace {

const std::array<QColor, 4> bandColors { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xe15759) };

// Each column of three pixels shows its slowest step, so one slow step still shows.
constexpr int kPixelsPerColumn = 3;

// A column ends one step after its last step.
constexpr double kOneStep = 1.0;

} // namespace

// The stacked bands, drawn as one rectangle per column and band. Qt's area series fills each band
// as a polygon whose cost grows with the square of its points (four bands of 340 points took 18 ms
// a frame, 530 points 45 ms: the window's thread held that long at every update of a followed job);
// rectangles written into an image cost the pixels they cover.
class PhaseStepChart::StackedColumns : public QGraphicsItem {
public:
    struct Column {
        double x0 = 0; // the column's first step and the step where it ends
        double x1 = 0;
        std::array<double, 4> top {}; // the stack's height after each band (ms)
    };

    StackedColumns(QChart* chart, QValueAxis* axisX, QValueAxis* axisY, const std::array<QColor, 4>& colors)
        : QGraphicsItem(chart)
        , m_chart(chart)
        , m_axisX(axisX)
        , m_axisY(axisY)
        , m_colors(colors)
    {
        // Above the plot's background and grid, below the series (the GPU's points).
        setZValue(4);
    }

    void setColumns(std::vector<Column> columns)
    {
        m_columns = std::move(columns);
        changed();
    }

    int columnCount() const { return int(m_columns.size()); }

    void changed()
    {
        prepareGeometryChange();
        m_plot = m_chart->plotArea();
        m_image = QImage();
        update();
    }

    QRectF boundingRect() const override { return m_plot; }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        if (m_image.isNull())
            m_image = drawn();
        if (!m_image.isNull())
            painter->drawImage(m_plot.topLeft(), m_image);
    }

private:
    // The columns written pixel by pixel into an image the plot's size, which the paint draws in
    // one call: the raster engine hands each fillRect of a few pixels' width to its thread pool,
    // and two thousand of them took 50 to 90 ms a frame, most of it waking threads.
    QImage drawn() const
    {
        const double xMin = m_axisX->min();
        const double xSpan = m_axisX->max() - xMin;
        const double yMax = m_axisY->max();
        const int width = int(std::ceil(m_plot.width()));
        const int height = int(std::ceil(m_plot.height()));
        if (m_columns.empty() || width <= 0 || height <= 0 || xSpan <= 0 || yMax <= 0)
            return {};
        QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        std::array<QRgb, 4> pixel {};
        for (size_t band = 0; band < pixel.size(); ++band)
            pixel[band] = qPremultiply(m_colors[band].rgba());
        // Whole pixels: columns that meet share none (with the bands' alpha, a shared one would
        // show as a darker seam).
        const auto px = [&](double x) { return int(std::lround(std::clamp((x - xMin) / xSpan, 0.0, 1.0) * width)); };
        const auto py = [&](double y) { return int(std::lround((1.0 - std::clamp(y / yMax, 0.0, 1.0)) * height)); };
        for (const Column& c : m_columns) {
            const int left = std::min(px(c.x0), width - 1);
            const int right = std::clamp(px(c.x1), left + 1, width);
            int below = height;
            for (size_t band = 0; band < c.top.size(); ++band) {
                const int above = py(c.top[band]);
                for (int y = above; y < below; ++y)
                    std::fill_n(reinterpret_cast<QRgb*>(image.scanLine(y)) + left, right - left, pixel[band]);
                below = std::min(below, above);
            }
        }
        return image;
    }

    QChart* m_chart;
    QValueAxis* m_axisX;
    QValueAxis* m_axisY;
    QRectF m_plot;
    std::vector<Column> m_columns;
    std::array<QColor, 4> m_colors {};
    QImage m_image; // the columns drawn; null until the next paint after a change
};

PhaseStepChart::PhaseStepChart(QWidget* parent)
    : ChartPanel(parent)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QValueAxis(this))
{
    addStepAxes(chart(), m_axisX, tr("step"), m_axisY, tr("ms per step"));
    const QStringList names { tr("F: forward (host)"), tr("B: backward (host)"), tr("O: optimizer step (host)"),
        tr("sync waits") };
    std::vector<FittedLegend::Entry> entries;
    std::array<QColor, 4> bandFill {};
    for (size_t i = 0; i < bandColors.size(); ++i) {
        bandFill[i] = bandColors[i];
        bandFill[i].setAlpha(i == 3 ? 200 : 150);
        entries.push_back({ names[int(i)], QPen(bandColors[i], 6) });
    }
    m_bands = new StackedColumns(chart(), m_axisX, m_axisY, bandFill);
    connect(chart(), &QChart::plotAreaChanged, this, [this] { m_bands->changed(); });
    // The GPU's time as points, not a line: a line would join the timed steps across the steps
    // that were only counted, values nobody measured.
    m_gpu = new QScatterSeries;
    m_gpu->setName(tr("GPU time"));
    const QColor gpuColor(20, 20, 20);
    m_gpu->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_gpu->setMarkerSize(2.5);
    m_gpu->setPen(Qt::NoPen);
    m_gpu->setBrush(gpuColor);
    chart()->addSeries(m_gpu);
    m_gpu->attachAxis(m_axisX);
    m_gpu->attachAxis(m_axisY);
    entries.push_back({ m_gpu->name(), QPen(gpuColor, 2.5, Qt::DotLine) });
    // Columns meet edge to edge: antialiased, each edge would show as a seam.
    setRenderHint(QPainter::Antialiasing, false);
    chart()->legend()->hide();
    m_legend = new FittedLegend(chart(), Qt::AlignBottom);
    QFont legendFont = chart()->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    m_legend->setFont(legendFont);
    m_legend->setEntries(std::move(entries));
    setSubtitle(QString());
    setPlaceholder(tr("Waiting for the job's first step…"));
}

void PhaseStepChart::setSubtitle(const QString& text)
{
    m_subtitle = text;
    updateTitle();
}

void PhaseStepChart::updateTitle()
{
    QString sub = m_subtitle.isEmpty()
        ? tr("the host's phases stacked, the loop's sync waits on top; the GPU's time per step beside them")
        : m_subtitle.toHtmlEscaped();
    if (!m_gapNote.isEmpty())
        sub += QStringLiteral("<br>") + m_gapNote.toHtmlEscaped();
    chart()->setTitle(tr("Step time<br><small>%1</small>").arg(sub));
}

void PhaseStepChart::setColumns(const Columns& columns)
{
    m_columns = columns;
    m_drawnCount = size_t(-1);
    refresh();
}

void PhaseStepChart::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    refresh();
}

void PhaseStepChart::adaptToPlotArea() { m_legend->layOut(); }

int PhaseStepChart::drawnPoints() const { return m_bands->columnCount(); }

int PhaseStepChart::drawnGpuPoints() const { return int(m_gpu->count()); }

void PhaseStepChart::refresh()
{
    const Columns& c = m_columns;
    const size_t count = c.step ? c.step->size() : 0;
    const int width = plotWidthPixels();
    if (count == m_drawnCount && width == m_drawnWidth)
        return;
    m_drawnCount = count;
    m_drawnWidth = width;
    if (count == 0) {
        m_bands->setColumns({});
        m_gpu->clear();
        m_lastStep = -1;
        setPlaceholder(tr("Waiting for the job's first step…"));
        return;
    }
    // The slowest step of every three pixels of the step axis: a single slow step still shows,
    // and every band is drawn at the same steps so that the stack stays a stack. Where steps were
    // only counted (the blocks between calibration blocks), no column covers them: a gap.
    size_t gaps = 0;
    const std::vector<XBin> bins = maxBinsOverX(
        c.step->data(), c.total->data(), count, std::max<size_t>(1, size_t(width) / kPixelsPerColumn), gaps);
    // The GPU's time comes per span of steps (the probe's --gpu-span-ms, 100 ms by default), so one
    // slow span is several equal points: the ceiling leaves out the slowest 2%, not 1%.
    constexpr double shownQuantile = 0.98;
    const double ceiling = 1.2
        * std::max(robustQuantile(c.total->data(), count, shownQuantile),
            c.gpu ? robustQuantile(c.gpu->data(), count, shownQuantile) : 0.0);
    setNiceRange(m_axisY, 0, ceiling > 0 ? ceiling : 1, true);
    // Points far above the plot are drawn at its top (a step that waited a second in a loop of
    // 50 µs steps).
    const double top = m_axisY->max() * 1.02;
    const auto shown = [top](double y) { return std::clamp(y, 0.0, top); };
    std::vector<StackedColumns::Column> columns;
    columns.reserve(bins.size());
    for (const XBin& bin : bins) {
        const size_t i = bin.highest;
        const double f = (*c.forward)[i];
        const double fb = f + double((*c.backward)[i]);
        const double fbo = fb + double((*c.optimizer)[i]);
        columns.push_back({ (*c.step)[bin.first], (*c.step)[bin.last] + kOneStep,
            { shown(f), shown(fb), shown(fbo), shown(std::max(fbo, double((*c.total)[i]))) } });
    }
    QList<QPointF> gpu;
    if (c.gpu) {
        for (const size_t i : minMaxIndices(c.gpu->data(), count, size_t(width))) {
            if ((*c.gpu)[i] >= 0)
                gpu.append(QPointF((*c.step)[i], shown(double((*c.gpu)[i]))));
        }
    }
    m_gpu->replace(gpu);
    m_lastStep = c.step->back();
    setNiceRange(m_axisX, c.step->front(), std::max(c.step->front() + 1, m_lastStep), false, 1);
    m_bands->setColumns(std::move(columns));
    const double span = m_lastStep - c.step->front() + 1;
    QStringList notes;
    if (gaps > 0) {
        notes << tr("gaps: steps only counted, not timed one by one (%1 of these %2 steps timed)")
                     .arg(qulonglong(count))
                     .arg(qulonglong(span));
    }
    if (bins.size() < count)
        notes
            << tr("each point the slowest of about %1 steps").arg(qulonglong((count + bins.size() - 1) / bins.size()));
    const QString note = notes.join(QStringLiteral("; "));
    if (note != m_gapNote) {
        m_gapNote = note;
        updateTitle();
    }
    setPlaceholder(QString());
}

} // namespace synctax
