#include "ui/trace/tracetimeline.h"

#include "core/text/format.h"
#include "ui/charts/axisrange.h"
#include "ui/trace/tracetimelinestyle.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace synctax {

using namespace timelinestyle;

TraceTimeline::TraceTimeline(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    // Lanes scroll under a fixed ruler: a DDP rank has several host threads and many streams.
    m_lanesBar = new QScrollBar(Qt::Vertical, this);
    m_lanesBar->hide();
    connect(m_lanesBar, &QScrollBar::valueChanged, this, [this] { update(); });
}

int TraceTimeline::plotRight() const { return width() - (m_lanesBar->isVisible() ? m_lanesBar->width() : 0); }

int TraceTimeline::lanesScroll() const { return m_lanesBar->value(); }

int TraceTimeline::lanesScrollRange() const { return m_lanesBar->maximum(); }

void TraceTimeline::scrollLanesTo(int y) { m_lanesBar->setValue(y); }

void TraceTimeline::updateLanesBar()
{
    const int range = std::max(0, m_contentHeight - height());
    const int w = m_lanesBar->sizeHint().width();
    m_lanesBar->setGeometry(width() - w, rulerHeight, w, std::max(0, height() - rulerHeight));
    m_lanesBar->setRange(0, range);
    m_lanesBar->setPageStep(std::max(rowHeight, height() - rulerHeight));
    m_lanesBar->setSingleStep(rowHeight);
    m_lanesBar->setVisible(range > 0);
}

void TraceTimeline::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateLanesBar();
}

void TraceTimeline::setRanks(const std::vector<TimelineRank>& ranks)
{
    m_rows.clear();
    m_lanes.clear();
    m_syncs.clear();
    m_rankHeaders.clear();
    m_steps.clear();
    m_highlighted = 0;
    m_first = std::numeric_limits<std::int64_t>::max();
    m_last = std::numeric_limits<std::int64_t>::min();
    int y = rulerHeight;
    for (size_t r = 0; r < ranks.size(); ++r) {
        m_rankHeaders.emplace_back(ranks[r].label, y);
        y += headerHeight;
        // Each file's lanes join the rank's rows by label (a watched folder's files share threads);
        // the map's order puts host threads over GPU streams, each by label.
        std::map<std::pair<bool, QString>, size_t> rowOf;
        std::vector<const TimelineLanes*> lanes;
        for (const TraceFile* file : ranks[r].files) {
            // Built by the load's worker; a file made by hand (tests) is small enough to build here.
            m_lanes.push_back(file->timeline ? file->timeline
                                             : std::make_shared<const TimelineLanes>(buildTimelineLanes(file->trace)));
            lanes.push_back(m_lanes.back().get());
            for (const LaneSummary& lane : lanes.back()->lanes)
                rowOf.emplace(std::make_pair(lane.gpu, QString::fromStdString(lane.label)), 0);
        }
        for (auto& [key, index] : rowOf) {
            index = m_rows.size();
            Row row;
            row.rank = int(r);
            row.gpu = key.first;
            row.label = key.second;
            row.top = y;
            y += rowHeight;
            m_rows.push_back(row);
        }
        for (size_t f = 0; f < ranks[r].files.size(); ++f) {
            const TimelineLanes& t = *lanes[f];
            std::vector<size_t> laneRow(t.lanes.size());
            for (size_t l = 0; l < t.lanes.size(); ++l) {
                laneRow[l] = rowOf[std::make_pair(t.lanes[l].gpu, QString::fromStdString(t.lanes[l].label))];
                m_rows[laneRow[l]].parts.push_back(&t.lanes[l]);
            }
            m_steps.insert(m_steps.end(), t.steps.begin(), t.steps.end());
            if (!t.empty) {
                m_first = std::min(m_first, t.first);
                m_last = std::max(m_last, t.last);
            }
            const TraceReport& report = ranks[r].files[f]->report;
            for (const TraceSync& s : report.syncs) {
                Sync sync;
                sync.rank = int(r);
                sync.row = s.hostLane < laneRow.size() ? int(laneRow[s.hostLane]) : -1;
                sync.start = s.startNs;
                sync.end = s.endNs;
                sync.bubbleEnd = s.bubbleEndNs;
                if (s.site >= 0 && s.site < int(report.sites.size())) {
                    sync.op = report.sites[size_t(s.site)].op;
                    sync.python = report.sites[size_t(s.site)].python.value_or(std::string());
                }
                m_syncs.push_back(sync);
            }
        }
    }
    if (m_first > m_last) {
        m_first = 0;
        m_last = 1;
    }
    m_contentHeight = y + 4;
    setMinimumHeight(std::min(m_contentHeight, 120));
    // No taller than the lanes: the space below goes to the tables.
    setMaximumHeight(m_rows.empty() ? QWIDGETSIZE_MAX : m_contentHeight);
    updateGeometry();
    updateLanesBar();
    m_lanesBar->setValue(0);
    fitAll();
}

void TraceTimeline::highlightSite(int rank, const std::string& op, const std::optional<std::string>& python)
{
    m_highlighted = 0;
    for (Sync& s : m_syncs) {
        s.highlighted = rank >= 0 && s.rank == rank && s.op == op && s.python == python.value_or(std::string());
        m_highlighted += s.highlighted ? 1 : 0;
    }
    update();
}

void TraceTimeline::fitAll()
{
    const std::int64_t margin = std::max<std::int64_t>(1, (m_last - m_first) / 50);
    m_viewStart = m_first - margin;
    m_viewEnd = m_last + margin;
    update();
}

void TraceTimeline::zoom(double factor, std::int64_t anchorNs)
{
    // No closer than 1 µs across the plot, no wider than twice everything.
    const double span = double(m_viewEnd - m_viewStart);
    const double wanted = std::clamp(span / factor, 1000.0, 2.0 * double(m_last - m_first) + 1000.0);
    const double anchorShare = span > 0 ? double(anchorNs - m_viewStart) / span : 0.5;
    m_viewStart = anchorNs - std::int64_t(anchorShare * wanted);
    m_viewEnd = m_viewStart + std::int64_t(wanted);
    update();
}

void TraceTimeline::pan(double fraction)
{
    const auto shift = std::int64_t(fraction * double(m_viewEnd - m_viewStart));
    m_viewStart += shift;
    m_viewEnd += shift;
    update();
}

double TraceTimeline::xOf(std::int64_t ns) const
{
    const double plot = std::max(1, plotRight() - labelWidth);
    return labelWidth + plot * double(ns - m_viewStart) / double(std::max<std::int64_t>(1, m_viewEnd - m_viewStart));
}

std::int64_t TraceTimeline::nsAt(double x) const
{
    const double plot = std::max(1, plotRight() - labelWidth);
    return m_viewStart + std::int64_t((x - labelWidth) / plot * double(m_viewEnd - m_viewStart));
}

void TraceTimeline::paintRuler(QPainter& p) const
{
    const double spanMs = double(m_viewEnd - m_viewStart) / 1e6;
    const double step = niceTickStep(spanMs, std::max(2, (plotRight() - labelWidth) / 90));
    const double startMs = double(m_viewStart - m_first) / 1e6;
    p.setPen(palette().color(QPalette::Text));
    for (double t = std::ceil(startMs / step) * step; t <= startMs + spanMs; t += step) {
        const double x = xOf(m_first + std::int64_t(t * 1e6));
        p.drawLine(QPointF(x, rulerHeight - 5), QPointF(x, rulerHeight));
        const double label = std::abs(t) < step / 2 ? 0.0 : t; // no "-0 ms" from rounding
        p.drawText(
            QPointF(x + 2, rulerHeight - 7), QString::fromStdString(formatNumber("%g", label)) + QStringLiteral(" ms"));
    }
    p.drawLine(labelWidth, rulerHeight, plotRight(), rulerHeight);
}

void TraceTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (m_rows.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(
            rect(), Qt::AlignCenter, tr("Open a trace (File → Open Trace…) to see its host and GPU lanes here."));
        return;
    }
    paintRuler(p);
    // Rows are laid out from the ruler down; the lanes bar moves them up under the ruler.
    const int dy = -lanesScroll();
    const int right = plotRight();
    const QRect lanes(0, rulerHeight, right, height() - rulerHeight);
    auto shown = [&](int top) { return top + dy + rowHeight >= rulerHeight && top + dy <= height(); };
    p.setClipRect(QRect(labelWidth, rulerHeight, right - labelWidth, height() - rulerHeight));
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
    for (std::int64_t start : m_steps) {
        if (start >= m_viewStart && start <= m_viewEnd)
            p.drawLine(QPointF(xOf(start), rulerHeight), QPointF(xOf(start), height()));
    }
    // Bubbles first, under the GPU work of the rank's streams.
    for (const Sync& s : m_syncs) {
        if (s.bubbleEnd <= s.end || s.bubbleEnd < m_viewStart || s.end > m_viewEnd)
            continue;
        for (const Row& row : m_rows) {
            if (row.rank == s.rank && row.gpu && shown(row.top))
                p.fillRect(QRectF(xOf(s.end), row.top + dy, std::max(1.0, xOf(s.bubbleEnd) - xOf(s.end)), rowHeight),
                    s.highlighted ? QColor(255, 200, 0, 110) : QColor(225, 87, 89, 55));
        }
    }
    for (const Row& row : m_rows) {
        if (shown(row.top))
            paintRow(p, row, row.top + dy);
    }
    for (const Sync& s : m_syncs) {
        if (s.row < 0 || s.end < m_viewStart || s.start > m_viewEnd)
            continue;
        const Row& row = m_rows[size_t(s.row)];
        if (!shown(row.top))
            continue;
        const double x = xOf(s.start);
        const int top = row.top + dy;
        QPolygonF mark { QPointF(x - 4, top), QPointF(x + 4, top), QPointF(x, top + 6) };
        p.setPen(s.highlighted ? QPen(Qt::black, 1.5) : Qt::NoPen);
        p.setBrush(s.highlighted ? QColor(255, 200, 0) : QColor(0xe15759));
        p.drawPolygon(mark);
    }
    p.setClipRect(lanes);
    p.setPen(palette().color(QPalette::Text));
    for (const auto& [label, y] : m_rankHeaders) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRect(4, y + dy, right - 8, headerHeight), Qt::AlignVCenter | Qt::AlignLeft, label);
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(0, y + dy, right, y + dy);
        p.setPen(palette().color(QPalette::Text));
    }
    p.setFont(font());
    for (const Row& row : m_rows) {
        if (shown(row.top))
            p.drawText(QRect(12, row.top + dy, labelWidth - 16, rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                p.fontMetrics().elidedText(row.label, Qt::ElideMiddle, labelWidth - 16));
    }
}

void TraceTimeline::wheelEvent(QWheelEvent* event)
{
    // Shift + wheel scrolls the lanes (Qt may turn it into a horizontal delta); the wheel zooms.
    if (event->modifiers() & Qt::ShiftModifier) {
        const int delta = event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
        m_lanesBar->setValue(m_lanesBar->value() - delta / 120 * 3 * rowHeight);
        event->accept();
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoom(std::pow(1.25, steps), nsAt(event->position().x()));
    event->accept();
}

void TraceTimeline::keyPressEvent(QKeyEvent* event)
{
    const std::int64_t middle = m_viewStart + (m_viewEnd - m_viewStart) / 2;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom(1.5, middle);
        break;
    case Qt::Key_Minus:
        zoom(1 / 1.5, middle);
        break;
    case Qt::Key_Left:
        pan(-0.2);
        break;
    case Qt::Key_Right:
        pan(0.2);
        break;
    case Qt::Key_PageUp:
        m_lanesBar->triggerAction(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        m_lanesBar->triggerAction(QAbstractSlider::SliderPageStepAdd);
        break;
    case Qt::Key_Home:
    case Qt::Key_F:
    case Qt::Key_0:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TraceTimeline::mousePressEvent(QMouseEvent* event)
{
    m_dragX = event->position().x();
    m_dragStart = m_viewStart;
    setFocus();
}

void TraceTimeline::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton) || m_dragX < 0)
        return;
    const double plot = std::max(1, plotRight() - labelWidth);
    const auto shift = std::int64_t((m_dragX - event->position().x()) / plot * double(m_viewEnd - m_viewStart));
    const std::int64_t span = m_viewEnd - m_viewStart;
    m_viewStart = m_dragStart + shift;
    m_viewEnd = m_viewStart + span;
    update();
}

} // namespace synctax
