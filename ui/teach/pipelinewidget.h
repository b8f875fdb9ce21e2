#pragma once

#include "core/queuemodel/simulator.h"
#include "core/steps/steprecord.h"

#include <QString>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <vector>

namespace synctax {

// Two simulated pipelines stacked, "with a sync every n steps" over "without": for each, a host
// lane (host work, dispatch, waiting for queue space, waiting in a sync), a queue lane (steps
// queued and not yet run, filling and draining, with the queue's capacity) and a GPU lane (busy
// per step, idle gaps), over a window of about ten steps. A time cursor sweeps the window on a
// slowed-down clock; what lies ahead of it is faded, and a panel beside each queue lane shows the
// queue's boxes at the cursor. The clock only runs while the widget is visible.
class PipelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit PipelineWidget(QWidget* parent = nullptr);

    // n <= 0: no sync; both pipelines are the baseline.
    void setModel(const QueueModel& model, int64_t syncEveryN);
    // One block of `steps` steps of a style from an idle GPU: `steps` records, ns on the block's own clock.
    using BlockRecords = std::function<std::vector<StepRecord>(const StyleSpec& style, int64_t steps)>;
    // The same pipelines with their steps from `records` (a replayed launch sequence); `model` is
    // the loop as drawn: its H, D, K and G place each step's host work, dispatch and GPU start.
    void setModel(const QueueModel& model, int64_t syncEveryN, const BlockRecords& records);

    // 1 plays the window in baseSeconds() seconds; 0.1 ten times slower, 10 ten times faster.
    void setSpeed(double speed);
    double speed() const { return m_speed; }
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    bool isAnimating() const { return m_timer.isActive(); }
    static double baseSeconds() { return 6.0; }

    double cursorMs() const { return m_cursorNs * 1e-6; }
    double windowMs() const { return m_windowNs * 1e-6; }
    void setCursorMs(double ms);

    // One simulated pipeline as drawn.
    struct Trace {
        QString title;
        std::vector<StepRecord> records; // every simulated step; drawn where they meet the window
        double originNs = 0; // the window's start on this trace's clock: its first shown step starts
        double msPerStep = 0; // over the shown steps
    };
    const Trace& withSync() const { return m_traces[0]; }
    const Trace& withoutSync() const { return m_traces[1]; }

    // Steps (fractions included) queued and not yet run at `ns` on the trace's clock.
    double queuedSteps(const Trace& trace, double ns) const;

    QSize sizeHint() const override { return QSize(900, 380); }
    QSize minimumSizeHint() const override { return QSize(520, 320); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void advance();
    void updateTimer();
    double gpuStartNs(const Trace& trace, size_t i) const;
    void paintTrace(QPainter& p, const Trace& trace, const QRectF& area, double queueScale) const;
    void paintQueueNow(QPainter& p, const Trace& trace, const QRectF& area) const;
    void paintAxis(QPainter& p, const QRectF& area) const;
    void paintLegend(QPainter& p, const QRectF& area) const;
    double xOf(double ns, const QRectF& lane) const;

    QueueModel m_model;
    int64_t m_syncEveryN = 1;
    Trace m_traces[2];
    double m_windowNs = 1;
    double m_cursorNs = 0;
    double m_holdNs = 0; // the cursor rests this long at the window's end before starting over
    double m_speed = 1;
    bool m_paused = false;
    QTimer m_timer;
};

} // namespace synctax
