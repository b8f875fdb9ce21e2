#include "ui/charts/queuechart.h"

#include "core/config/experimentconfig.h"
#include "core/config/stylecatalog.h"
#include "core/steps/runhistory.h"
#include "core/text/format.h"
#include "ui/charts/axisrange.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"

#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

namespace synctax {

namespace {

// Every slot of the x range that holds a sync gets one marker, at its first sync: a marker is
// wider than a slot, so more would overlap invisibly and each one costs a graphics item to draw.
std::vector<SamplePoint> oneMarkerPerSlot(const std::vector<SamplePoint>& syncs, double begin, double end, size_t slots)
{
    if (slots == 0 || syncs.size() <= slots)
        return syncs;
    std::vector<SamplePoint> kept;
    const double slotWidth = std::max(1.0, (end - begin) / double(slots));
    long lastSlot = -1;
    for (const SamplePoint& p : syncs) {
        const long slot = long((p.x - begin) / slotWidth);
        if (slot != lastSlot)
            kept.push_back(p);
        lastSlot = slot;
    }
    return kept;
}

} // namespace

QueueChart::QueueChart(QWidget* parent)
    : ChartPanel(parent)
    , m_lag(new QLineSeries(this))
    , m_queue(new QLineSeries(this))
    , m_syncs(new QScatterSeries(this))
    , m_axisX(new QValueAxis(this))
    , m_axisLag(new QValueAxis(this))
    , m_axisQueue(new QValueAxis(this))
{
    m_lag->setName(tr("lag: host ahead of GPU (ms)"));
    m_lag->setPen(QPen(QColor(0x4e79a7), 1.6));
    m_queue->setName(tr("queued steps"));
    m_queue->setPen(QPen(QColor(0xf28e2b), 1.3));
    m_syncs->setName(tr("host waits for GPU (sync)"));
    m_syncs->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_syncs->setMarkerSize(6);
    m_syncs->setColor(QColor(0xe15759));
    m_syncs->setBorderColor(QColor(0xe15759));

    m_axisX->setTitleText(tr("step (of this cell)"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisLag->setTitleText(tr("lag (ms)"));
    m_axisLag->setLabelFormat(QStringLiteral("%g"));
    m_axisLag->setTitleBrush(QColor(0x4e79a7));
    m_axisQueue->setTitleText(tr("queued steps"));
    m_axisQueue->setLabelFormat(QStringLiteral("%.0f"));
    m_axisQueue->setTitleBrush(QColor(0xc06010));
    m_axisQueue->setGridLineVisible(false);
    setNiceRange(m_axisX, 0, 1, false, 1);
    setNiceRange(m_axisLag, 0, 1, true);
    setNiceRange(m_axisQueue, 0, 2, true, 1);

    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisLag, Qt::AlignLeft);
    chart()->addAxis(m_axisQueue, Qt::AlignRight);
    // The queue first, so the lag line and the sync markers are drawn over it.
    chart()->addSeries(m_queue);
    chart()->addSeries(m_lag);
    chart()->addSeries(m_syncs);
    m_queue->attachAxis(m_axisX);
    m_queue->attachAxis(m_axisQueue);
    m_lag->attachAxis(m_axisX);
    m_lag->attachAxis(m_axisLag);
    m_syncs->attachAxis(m_axisX);
    m_syncs->attachAxis(m_axisLag);
    chart()->setTitle(tr("Queue"));
    setPlaceholder(tr("No run yet."));
}

void QueueChart::setHistory(const RunHistory* history, const ExperimentConfig* config)
{
    m_history = history;
    m_config = config;
    m_dirty = true;
}

void QueueChart::setCell(int index)
{
    if (index == m_cell)
        return;
    m_cell = index;
    m_dirty = true;
}

void QueueChart::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    refresh();
}

int QueueChart::currentCell() const
{
    if (!m_history)
        return -1;
    const int cell = m_cell >= 0 ? m_cell : m_history->lastCell();
    return cell < int(m_history->cells().size()) ? cell : -1;
}

StyleSpec QueueChart::styleSpecOf(const std::string& style) const
{
    // The controls run the baseline's loop, which never waits inside a block.
    if (isControlStyle(style))
        return StyleSpec { baselineStyle(), 0 };
    if (m_config) {
        for (const StyleSpec& spec : m_config->styles) {
            if (spec.name == style)
                return spec;
        }
    }
    const StyleInfo* info = findStyle(style);
    return StyleSpec { style, info ? info->defaultN : 0 };
}

int64_t QueueChart::stepsPerBlockOf(const std::string& model) const
{
    if (!m_config)
        return 0;
    for (const ModelSpec& spec : m_config->models) {
        if (spec.name == model)
            return m_config->stepsPerBlockFor(spec);
    }
    return m_config->stepsPerBlock;
}

void QueueChart::clearSeries()
{
    m_lag->clear();
    m_queue->clear();
    m_syncs->clear();
}

void QueueChart::refresh()
{
    const int cell = currentCell();
    const int width = plotWidthPixels();
    const uint64_t version = m_history ? m_history->version() : 0;
    if (!m_dirty && cell == m_shownCell && version == m_drawnVersion && width == m_drawnWidth)
        return;
    m_dirty = false;
    m_shownCell = cell;
    m_drawnVersion = version;
    m_drawnWidth = width;

    if (cell < 0) {
        clearSeries();
        chart()->setTitle(tr("Queue"));
        setPlaceholder(m_history ? tr("Waiting for the first measured block…") : noHistoryText());
        return;
    }
    const CellPlan& plan = m_history->cells().at(size_t(cell));
    const SweptKeys swept = m_config ? sweptKeys(*m_config) : SweptKeys {};
    chart()->setTitle(
        tr("Queue — %1/%2/%3%4")
            .arg(QString::fromStdString(plan.model), QString::fromStdString(plan.mode),
                QString::fromStdString(plan.style), QString::fromStdString(sweepPointSuffix(swept, plan))));
    const CellHistory& history = m_history->cell(uint32_t(cell));
    const size_t end = history.size();
    const size_t begin = end > windowSteps ? end - windowSteps : 0;
    if (begin == end) {
        clearSeries();
        setPlaceholder(tr("Waiting for the first measured block of this cell…"));
        return;
    }

    // Steps without a CUDA event (lag -1) are left out rather than drawn at -1.
    std::vector<SamplePoint> lag;
    std::vector<SamplePoint> queue;
    std::vector<SamplePoint> syncs;
    lag.reserve(end - begin);
    queue.reserve(end - begin);
    const StyleSpec spec = styleSpecOf(plan.style);
    const int64_t stepsPerBlock = stepsPerBlockOf(plan.model);
    for (size_t i = begin; i < end; ++i) {
        const double x = double(i);
        if (history.lagMs[i] >= 0)
            lag.push_back({ x, history.lagMs[i] });
        if (history.queueSteps[i] >= 0)
            queue.push_back({ x, double(history.queueSteps[i]) });
        if (history.lagMs[i] >= 0 && syncsAfterStep(spec, history.stepInBlock[i], stepsPerBlock))
            syncs.push_back({ x, history.lagMs[i] });
    }
    if (lag.empty() && queue.empty()) {
        clearSeries();
        setPlaceholder(tr("No GPU queue on this device: lag and queue depth need CUDA events."));
        return;
    }
    setPlaceholder(QString());

    m_lag->replace(toQPoints(minMaxDownsample(lag, size_t(width))));
    m_queue->replace(toQPoints(minMaxDownsample(queue, size_t(width))));
    m_syncs->replace(toQPoints(oneMarkerPerSlot(syncs, double(begin), double(end), size_t(width) / markerSlotPixels)));

    setNiceRange(m_axisX, double(begin), std::max(double(begin) + 1, double(end - 1)), false, 1);
    std::vector<float> lagValues(history.lagMs.begin() + std::ptrdiff_t(begin), history.lagMs.end());
    setNiceRange(m_axisLag, 0, robustCeiling(lagValues.data(), lagValues.size(), 0.1), true);
    int deepest = 0;
    for (size_t i = begin; i < end; ++i)
        deepest = std::max(deepest, int(history.queueSteps[i]));
    setNiceRange(m_axisQueue, 0, std::max(2.0, deepest * 1.15), true, 1);
}

} // namespace synctax
