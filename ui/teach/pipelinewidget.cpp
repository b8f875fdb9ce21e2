#include "ui/teach/pipelinewidget.h"

#include "core/queuemodel/taxestimate.h"
#include "core/text/format.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

constexpr int shownSteps = 10;
constexpr int frameMs = 33; // ~30 Hz

const QColor hostWorkColor(0xba, 0xb0, 0xac);
const QColor dispatchColor(0x4e, 0x79, 0xa7);
const QColor queueFullColor(0xf2, 0x8e, 0x2b);
const QColor syncColor(0xe1, 0x57, 0x59);
const QColor queueColor(0xb0, 0x7a, 0xa1);
const QColor gpuColors[2] = { QColor(0x59, 0xa1, 0x4f), QColor(0x3d, 0x7a, 0x35) };
const QColor laneBackground(0xf4, 0xf4, 0xf4);

double niceStep(double rough)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    for (double f : { 1.0, 2.0, 2.5, 5.0 }) {
        if (f * magnitude >= rough)
            return f * magnitude;
    }
    return 10 * magnitude;
}

double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

constexpr double titleHeight = 20;
constexpr double hostLaneHeight = 22;
constexpr double gpuLaneHeight = 22;
constexpr double laneGap = 4;
constexpr double labelWidth = 64;
constexpr double nowPanelWidth = 200;

} // namespace

PipelineWidget::PipelineWidget(QWidget* parent)
    : QWidget(parent)
{
    m_timer.setInterval(frameMs);
    connect(&m_timer, &QTimer::timeout, this, &PipelineWidget::advance);
    setMinimumSize(minimumSizeHint());
    setModel(QueueModel {}, 1);
}

void PipelineWidget::setModel(const QueueModel& model, int64_t syncEveryN)
{
    setModel(model, syncEveryN, [&model](const StyleSpec& style, int64_t steps) {
        std::vector<StepRecord> records;
        Simulator(model).runBlock(style, steps, StepRecord {}, &records);
        return records;
    });
}

void PipelineWidget::setModel(const QueueModel& model, int64_t syncEveryN, const BlockRecords& blockRecords)
{
    const double oldFraction = m_windowNs > 0 ? m_cursorNs / m_windowNs : 0;
    m_model = model;
    m_syncEveryN = syncEveryN;
    const int64_t total = syncEveryN > 0 ? std::max<int64_t>(shownSteps, syncEveryN + 2) : shownSteps;
    const size_t first = size_t(total - shownSteps);
    const StyleSpec styles[2] = { syncEveryNStyle(syncEveryN), syncEveryNStyle(0) };
    if (syncEveryN <= 0)
        m_traces[0].title = tr("No sync: the same as the baseline");
    else
        m_traces[0].title = tr("With %1%2")
                                .arg(QString::fromStdString(syncEveryLabel(syncEveryN)),
                                    syncEveryN == 1 ? tr(" (the host waits for the GPU after each step)") : QString());
    m_traces[1].title = tr("Without (baseline: no sync)");

    double windowEnd = 0;
    for (int t = 0; t < 2; ++t) {
        Trace& trace = m_traces[t];
        trace.records = blockRecords(styles[t], total);
        const StepRecord& firstShown = trace.records[first];
        const StepRecord& last = trace.records.back();
        trace.originNs = double(firstShown.startNs);
        trace.msPerStep = double(last.gpuDoneNs - firstShown.gpuDoneNs) * 1e-6 / double(shownSteps - 1);
        windowEnd = std::max(windowEnd, double(last.loggedNs) - trace.originNs);
        if (t == 0)
            windowEnd = std::max(windowEnd, double(last.gpuDoneNs) - trace.originNs);
    }
    m_windowNs = std::max(1.0, windowEnd * 1.03);
    m_holdNs = 0.15 * m_windowNs;
    m_cursorNs = std::clamp(oldFraction, 0.0, 1.0) * m_windowNs;
    update();
}

void PipelineWidget::setSpeed(double speed) { m_speed = std::clamp(speed, 0.1, 10.0); }

void PipelineWidget::setPaused(bool paused)
{
    m_paused = paused;
    updateTimer();
}

void PipelineWidget::setCursorMs(double ms)
{
    m_cursorNs = std::clamp(ms * 1e6, 0.0, m_windowNs);
    update();
}

void PipelineWidget::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    updateTimer();
}

void PipelineWidget::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    updateTimer();
}

void PipelineWidget::updateTimer()
{
    // A hidden view costs nothing: the clock stops with it and resumes where it was.
    if (isVisible() && !m_paused)
        m_timer.start();
    else
        m_timer.stop();
}

void PipelineWidget::advance()
{
    m_cursorNs += frameMs * 1e-3 / baseSeconds() * m_speed * m_windowNs;
    if (m_cursorNs > m_windowNs + m_holdNs)
        m_cursorNs = 0;
    update();
}

double PipelineWidget::gpuStartNs(const Trace& trace, size_t i) const
{
    const StepRecord& r = trace.records[i];
    // The step's first launch reaches the GPU once the host has done H and dispatched it, and
    // runs once the GPU has finished the step before.
    double start = double(r.startNs) + m_model.hUs * 1e3 + m_model.dMs * 1e6 / double(std::max<int64_t>(1, m_model.k));
    if (i > 0)
        start = std::max(start, double(trace.records[i - 1].gpuDoneNs));
    return std::min(start, double(r.gpuDoneNs));
}

double PipelineWidget::queuedSteps(const Trace& trace, double ns) const
{
    double queued = 0;
    for (size_t i = 0; i < trace.records.size(); ++i) {
        const StepRecord& r = trace.records[i];
        const double dispatchBegin = double(r.startNs) + m_model.hUs * 1e3;
        const double dispatchEnd = double(r.dispatchedNs);
        if (ns <= dispatchBegin)
            break;
        const double dispatched
            = dispatchEnd > dispatchBegin ? clamp01((ns - dispatchBegin) / (dispatchEnd - dispatchBegin)) : 1.0;
        const double gpuStart = gpuStartNs(trace, i);
        const double gpuEnd = double(r.gpuDoneNs);
        const double run = gpuEnd > gpuStart ? clamp01((ns - gpuStart) / (gpuEnd - gpuStart)) : (ns >= gpuEnd);
        queued += std::max(0.0, dispatched - run);
    }
    return queued;
}

double PipelineWidget::xOf(double ns, const QRectF& lane) const
{
    return lane.left() + lane.width() * std::clamp(ns / m_windowNs, 0.0, 1.0);
}

void PipelineWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());

    const QRectF all = QRectF(rect()).adjusted(8, 4, -8, -4);
    const double axisHeight = 34;
    const double legendHeight = 24;
    const double fixed = 2 * (titleHeight + hostLaneHeight + gpuLaneHeight + 2 * laneGap + 12);
    const double queueLane = std::clamp((all.height() - axisHeight - legendHeight - fixed) / 2, 30.0, 80.0);
    const double traceHeight = titleHeight + hostLaneHeight + queueLane + gpuLaneHeight + 2 * laneGap;

    const QRectF plot(all.left() + labelWidth, all.top(), all.width() - labelWidth - nowPanelWidth - 12, all.height());
    double queueScale = 1;
    for (const Trace& trace : m_traces) {
        for (int s = 0; s <= 200; ++s)
            queueScale = std::max(queueScale, queuedSteps(trace, trace.originNs + m_windowNs * s / 200.0));
    }
    queueScale = std::ceil(queueScale);

    double y = all.top();
    for (int t = 0; t < 2; ++t) {
        const QRectF area(all.left(), y, all.width(), traceHeight);
        paintTrace(p, m_traces[t], area, queueScale);
        // Ahead of the cursor is the future: faded, so the eye follows the cursor.
        const QRectF lanes(plot.left(), y + titleHeight, plot.width(), traceHeight - titleHeight);
        const double cursorX = xOf(m_cursorNs, lanes);
        p.fillRect(QRectF(cursorX, lanes.top(), lanes.right() - cursorX, lanes.height()), QColor(255, 255, 255, 170));
        p.setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5));
        p.drawLine(QPointF(cursorX, lanes.top()), QPointF(cursorX, lanes.bottom() + (t == 1 ? 2 : 12)));
        y += traceHeight + 12;
    }

    paintAxis(p, QRectF(plot.left(), y - 10, plot.width(), axisHeight));
    paintLegend(p, QRectF(all.left(), all.bottom() - legendHeight, all.width(), legendHeight));
}

void PipelineWidget::paintTrace(QPainter& p, const Trace& trace, const QRectF& area, double queueScale) const
{
    const double laneLeft = area.left() + labelWidth;
    const double laneWidth = area.width() - labelWidth - nowPanelWidth - 12;
    const double queueLane = area.height() - titleHeight - hostLaneHeight - gpuLaneHeight - 2 * laneGap;
    const QRectF host(laneLeft, area.top() + titleHeight, laneWidth, hostLaneHeight);
    const QRectF queue(laneLeft, host.bottom() + laneGap, laneWidth, queueLane);
    const QRectF gpu(laneLeft, queue.bottom() + laneGap, laneWidth, gpuLaneHeight);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().text().color());
    p.drawText(QRectF(area.left(), area.top(), area.width(), titleHeight), Qt::AlignLeft | Qt::AlignVCenter,
        tr("%1 — %2 ms per step in this window")
            .arg(trace.title)
            .arg(trace.msPerStep, 0, 'f', trace.msPerStep < 10 ? 2 : 1));
    p.setFont(font());

    const auto laneLabel = [&](const QRectF& lane, const QString& text) {
        p.setPen(palette().text().color());
        p.drawText(QRectF(area.left() - 4, lane.top(), labelWidth - 2, lane.height()),
            Qt::AlignRight | Qt::AlignVCenter, text);
        p.fillRect(lane, laneBackground);
    };
    laneLabel(host, tr("host"));
    laneLabel(queue, tr("queue\n0–%1 steps").arg(queueScale));
    laneLabel(gpu, tr("GPU"));

    const double origin = trace.originNs;
    const auto span = [&](const QRectF& lane, double fromNs, double toNs) {
        const double x0 = xOf(fromNs - origin, lane);
        const double x1 = xOf(toNs - origin, lane);
        return QRectF(x0, lane.top(), std::max(0.0, x1 - x0), lane.height());
    };
    const auto stepLabel = [&](const QRectF& box, const StepRecord& r, bool onStripes = false) {
        if (box.width() < 18)
            return;
        p.setPen(onStripes ? palette().text().color() : QColor(Qt::white));
        p.drawText(box, Qt::AlignCenter, QString::number(r.step + 1));
    };

    const double hNs = m_model.hUs * 1e3;
    const double dNs = m_model.dMs * 1e6;
    for (size_t i = 0; i < trace.records.size(); ++i) {
        const StepRecord& r = trace.records[i];
        const double start = double(r.startNs);
        const double dispatchEnd = std::min(double(r.dispatchedNs), start + hNs + dNs);
        p.fillRect(span(host, start, start + hNs), hostWorkColor);
        const QRectF dispatch = span(host, start + hNs, dispatchEnd);
        p.fillRect(dispatch, dispatchColor);
        p.fillRect(span(host, dispatchEnd, double(r.dispatchedNs)), queueFullColor);
        p.fillRect(span(host, double(r.dispatchedNs), double(r.loggedNs)), syncColor);
        stepLabel(dispatch, r);

        // Where the GPU outpaces dispatch it runs each launch as it arrives and idles between
        // them: drawn as stripes whose width is the share of the step's span it was busy.
        const QRectF busy = span(gpu, gpuStartNs(trace, i), double(r.gpuDoneNs));
        const double spanNs = double(r.gpuDoneNs) - gpuStartNs(trace, i);
        const double share = spanNs > 0 ? clamp01(m_model.gMs * 1e6 / spanNs) : 1.0;
        const QColor color = gpuColors[r.step % 2];
        const bool striped = share <= 0.95 && busy.width() >= 3;
        if (!striped) {
            p.fillRect(busy, color);
        } else {
            const int stripes = int(std::clamp<double>(busy.width() / 5, 1.0, double(std::max<int64_t>(1, m_model.k))));
            const double period = busy.width() / stripes;
            for (int s = 0; s < stripes; ++s)
                p.fillRect(
                    QRectF(busy.left() + s * period, busy.top(), std::max(1.0, period * share), busy.height()), color);
        }
        stepLabel(busy, r, striped);
    }

    // Queue depth over time in steps; white lines cut it into one box per step.
    const double stepHeight = (queue.height() - 4) / queueScale;
    p.setPen(QPen(queueColor, 1));
    for (int x = 0; x < int(queue.width()); ++x) {
        const double ns = origin + m_windowNs * (x + 0.5) / queue.width();
        const double depth = queuedSteps(trace, ns);
        if (depth > 0.001)
            p.drawLine(QPointF(queue.left() + x + 0.5, queue.bottom()),
                QPointF(queue.left() + x + 0.5, queue.bottom() - depth * stepHeight));
    }
    if (stepHeight >= 5) {
        p.setPen(QPen(laneBackground, 1));
        for (int level = 1; level < int(queueScale); ++level)
            p.drawLine(QPointF(queue.left(), queue.bottom() - level * stepHeight),
                QPointF(queue.right(), queue.bottom() - level * stepHeight));
    }
    const double capacity = double(m_model.queueCapacity) / double(std::max<int64_t>(1, m_model.k));
    p.setPen(QPen(syncColor, 1.2, Qt::DashLine));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    if (capacity <= queueScale) {
        const double capY = queue.bottom() - capacity * stepHeight;
        p.drawLine(QPointF(queue.left(), capY), QPointF(queue.right(), capY));
        p.drawText(QRectF(queue.left() + 4, capY - 14, queue.width() - 8, 13), Qt::AlignLeft | Qt::AlignBottom,
            tr("capacity %1 steps").arg(capacity, 0, 'f', 1));
    }
    p.setFont(font());

    paintQueueNow(p, trace, QRectF(area.right() - nowPanelWidth, host.top(), nowPanelWidth, gpu.bottom() - host.top()));
}

void PipelineWidget::paintQueueNow(QPainter& p, const Trace& trace, const QRectF& area) const
{
    const double ns = trace.originNs + m_cursorNs;
    std::vector<std::pair<uint32_t, double>> boxes; // step, share of it queued
    for (size_t i = 0; i < trace.records.size(); ++i) {
        const StepRecord& r = trace.records[i];
        const double begin = double(r.startNs) + m_model.hUs * 1e3;
        const double end = double(r.dispatchedNs);
        if (ns <= begin)
            break;
        const double dispatched = end > begin ? clamp01((ns - begin) / (end - begin)) : 1.0;
        const double gpuStart = gpuStartNs(trace, i);
        const double gpuEnd = double(r.gpuDoneNs);
        const double run = gpuEnd > gpuStart ? clamp01((ns - gpuStart) / (gpuEnd - gpuStart)) : (ns >= gpuEnd);
        if (dispatched - run > 0.002)
            boxes.emplace_back(r.step, dispatched - run);
    }
    double total = 0;
    for (const auto& box : boxes)
        total += box.second;

    p.setPen(QPen(palette().mid().color(), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(area, 4, 4);
    p.setPen(palette().text().color());
    p.drawText(area.adjusted(6, 2, -6, 0), Qt::AlignLeft | Qt::AlignTop,
        tr("queue at the cursor: %1 steps").arg(total, 0, 'f', 1));

    // The queue's slots, one per step it holds (the last one partial), filled by the steps in it.
    constexpr int perRow = 9;
    constexpr double boxWidth = 17, boxHeight = 20, gap = 3;
    const double left = area.left() + 8;
    const double top = area.top() + 24;
    const int maxBoxes = 2 * perRow;
    const double capacity = double(m_model.queueCapacity) / double(std::max<int64_t>(1, m_model.k));
    const auto slotRect = [&](int b, double widthShare) {
        const int row = b / perRow; // slots fill rows left to right
        const int column = b % perRow;
        return QRectF(
            left + column * (boxWidth + gap), top + row * (boxHeight + gap), boxWidth * widthShare, boxHeight);
    };
    const int slots = std::min(maxBoxes, int(std::ceil(capacity - 1e-9)));
    p.setPen(QPen(palette().mid().color(), 1, Qt::DashLine));
    for (int b = 0; b < slots; ++b)
        p.drawRect(slotRect(b, std::min(1.0, capacity - b)));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.75);
    p.setFont(small);
    for (int b = 0; b < int(boxes.size()) && b < maxBoxes; ++b) {
        const QRectF box = slotRect(b, 1.0);
        // The GPU drains a step from its front: what is left of it sits at the box's right.
        const double share = boxes[size_t(b)].second;
        p.fillRect(QRectF(box.right() - box.width() * share, box.top(), box.width() * share, box.height()), queueColor);
        p.setPen(QPen(queueColor.darker(130), 1));
        p.drawRect(box);
        p.setPen(share > 0.5 ? Qt::white : palette().text().color());
        p.drawText(box, Qt::AlignCenter, QString::number(boxes[size_t(b)].first + 1));
    }
    p.setPen(palette().text().color());
    if (int(boxes.size()) > maxBoxes || capacity > maxBoxes)
        p.drawText(QRectF(left, top + 2 * (boxHeight + gap), area.width() - 16, 14), Qt::AlignLeft,
            tr("(%1 slots drawn)").arg(maxBoxes));
    p.setPen(palette().text().color());
    p.drawText(QRectF(area.left() + 6, area.bottom() - 16, area.width() - 12, 14), Qt::AlignLeft | Qt::AlignBottom,
        tr("holds %1 steps: Q %2 / K %3").arg(capacity, 0, 'f', 1).arg(m_model.queueCapacity).arg(m_model.k));
    p.setFont(font());
}

void PipelineWidget::paintAxis(QPainter& p, const QRectF& area) const
{
    const double windowMs = m_windowNs * 1e-6;
    const double step = niceStep(windowMs / 8);
    p.setPen(palette().text().color());
    p.drawLine(area.topLeft(), area.topRight());
    for (double ms = 0; ms <= windowMs + 1e-9; ms += step) {
        const double x = area.left() + area.width() * ms / windowMs;
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.top() + 4));
        p.drawText(
            QRectF(x - 40, area.top() + 4, 80, 14), Qt::AlignHCenter | Qt::AlignTop, QString::number(ms, 'g', 4));
    }
    p.drawText(QRectF(area.left(), area.top() + 18, area.width(), 16), Qt::AlignHCenter | Qt::AlignTop,
        tr("time (ms); cursor at %1 ms").arg(m_cursorNs * 1e-6, 0, 'f', windowMs < 10 ? 2 : 1));
}

void PipelineWidget::paintLegend(QPainter& p, const QRectF& area) const
{
    const std::pair<QColor, QString> entries[] = {
        { hostWorkColor, tr("host work H") },
        { dispatchColor, tr("dispatch D") },
        { queueFullColor, tr("host waits: queue full") },
        { syncColor, tr("host waits in sync") },
        { queueColor, tr("queued steps") },
        { gpuColors[0], tr("GPU busy (stripes: idle between launches)") },
    };
    double x = area.left();
    const QFontMetricsF metrics(font());
    for (const auto& [color, text] : entries) {
        p.fillRect(QRectF(x, area.center().y() - 6, 12, 12), color);
        x += 16;
        p.setPen(palette().text().color());
        const double width = metrics.horizontalAdvance(text);
        p.drawText(QRectF(x, area.top(), width + 2, area.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += width + 18;
    }
}

} // namespace synctax
