#include "ui/charts/phasestepchart.h"

#include "ui/charts/axisrange.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"
#include "ui/charts/fittedlegend.h"

#include <QAreaSeries>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace synctax {

namespace {

const std::array<QColor, 4> bandColors { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xe15759) };

// The stack's outline is each column's slowest step (maxIndices), a graph with one point a column.
// Min and max per pixel drew an edge the plot's height tall in every pixel, and Qt's area series
// took seconds a frame over such an outline (its time grows with the square of the points: 2,600
// took 3.8 s, 430 took 50 ms on 2 cores).
constexpr int kPixelsPerColumn = 3;

} // namespace

PhaseStepChart::PhaseStepChart(QWidget* parent)
    : ChartPanel(parent)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QValueAxis(this))
{
    addStepAxes(chart(), m_axisX, tr("step"), m_axisY, tr("ms per step"));
    const QStringList names { tr("F: forward (host)"), tr("B: backward (host)"), tr("O: optimizer step (host)"),
        tr("sync waits") };
    std::vector<FittedLegend::Entry> entries;
    for (size_t i = 0; i < m_bands.size(); ++i) {
        m_upper[i] = new QLineSeries(this);
        QLineSeries* lower = nullptr;
        if (i > 0) {
            m_lower[i - 1] = new QLineSeries(this);
            lower = m_lower[i - 1];
        }
        m_bands[i] = new QAreaSeries(m_upper[i], lower);
        m_bands[i]->setName(names[int(i)]);
        QColor fill = bandColors[i];
        fill.setAlpha(i == 3 ? 200 : 150);
        m_bands[i]->setBrush(fill);
        // No outline: an area's pen draws its lower edge too, so over a spike one pixel wide the
        // top band's outline would colour the whole spike as that band (sync waits where none were).
        m_bands[i]->setPen(Qt::NoPen);
        chart()->addSeries(m_bands[i]);
        m_bands[i]->attachAxis(m_axisX);
        m_bands[i]->attachAxis(m_axisY);
        entries.push_back({ names[int(i)], QPen(bandColors[i], 6) });
    }
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
    // The bands' edges jump from each pixel column's fastest step to its slowest: filled with
    // antialiasing, thousands of such edges the plot's height apart cost the raster engine seconds
    // a frame (a fast CPU loop held the window for that long); without it, milliseconds.
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

int PhaseStepChart::drawnPoints() const { return int(m_upper[3]->count()); }

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
        for (QLineSeries* s : m_upper)
            s->clear();
        for (QLineSeries* s : m_lower)
            s->clear();
        m_gpu->clear();
        m_lastStep = -1;
        setPlaceholder(tr("Waiting for the job's first step…"));
        return;
    }
    // The slowest step of every three pixels: a single slow step still shows, and every band is
    // drawn at the same steps so that the stack stays a stack. Where steps were only counted (the
    // blocks between calibration blocks), the timed steps on either side are kept and the bands
    // fall to zero between them: a gap, not a line joining two measured steps.
    std::vector<size_t> kept = maxIndices(c.total->data(), count, size_t(width) / kPixelsPerColumn);
    if (kept.empty() || kept.back() != count - 1)
        kept.push_back(count - 1);
    size_t gaps = 0;
    for (size_t i = 0; i + 1 < count; ++i) {
        if ((*c.step)[i + 1] > (*c.step)[i] + 1.5) {
            kept.push_back(i);
            kept.push_back(i + 1);
            ++gaps;
        }
    }
    if (gaps > 0) {
        std::sort(kept.begin(), kept.end());
        kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    }
    // The GPU's time comes per span of steps (the probe's --gpu-span-ms, 100 ms by default), so one
    // slow span is several equal points: the ceiling leaves out the slowest 2%, not 1%.
    constexpr double shownQuantile = 0.98;
    const double ceiling = 1.2
        * std::max(robustQuantile(c.total->data(), count, shownQuantile),
            c.gpu ? robustQuantile(c.gpu->data(), count, shownQuantile) : 0.0);
    setNiceRange(m_axisY, 0, ceiling > 0 ? ceiling : 1, true);
    // Points far above the plot are drawn at its top: what shows is the same, and the raster
    // engine fills a polygon a thousand times the plot's height for seconds (a step that waited
    // a second in a loop of 50 µs steps held the window for minutes).
    const double top = m_axisY->max() * 1.02;
    const auto shown = [top](double y) { return std::clamp(y, 0.0, top); };
    std::array<QList<QPointF>, 4> upper;
    for (QList<QPointF>& points : upper)
        points.reserve(qsizetype(kept.size()) + 2 * qsizetype(gaps));
    size_t previous = count;
    for (const size_t i : kept) {
        const double x = (*c.step)[i];
        if (previous + 1 == i && x > (*c.step)[previous] + 1.5) {
            for (QList<QPointF>& points : upper) {
                points.append(QPointF((*c.step)[previous], 0));
                points.append(QPointF(x, 0));
            }
        }
        previous = i;
        const double f = (*c.forward)[i];
        const double fb = f + double((*c.backward)[i]);
        const double fbo = fb + double((*c.optimizer)[i]);
        upper[0].append(QPointF(x, shown(f)));
        upper[1].append(QPointF(x, shown(fb)));
        upper[2].append(QPointF(x, shown(fbo)));
        upper[3].append(QPointF(x, shown(std::max(fbo, double((*c.total)[i])))));
    }
    for (size_t band = 0; band < m_upper.size(); ++band) {
        if (band > 0)
            m_lower[band - 1]->replace(upper[band - 1]);
        m_upper[band]->replace(upper[band]);
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
    const double span = m_lastStep - c.step->front() + 1;
    QStringList notes;
    if (gaps > 0) {
        notes << tr("gaps: steps only counted, not timed one by one (%1 of these %2 steps timed)")
                     .arg(qulonglong(count))
                     .arg(qulonglong(span));
    }
    if (kept.size() < count)
        notes
            << tr("each point the slowest of about %1 steps").arg(qulonglong((count + kept.size() - 1) / kept.size()));
    const QString note = notes.join(QStringLiteral("; "));
    if (note != m_gapNote) {
        m_gapNote = note;
        updateTitle();
    }
    setPlaceholder(QString());
}

} // namespace synctax
