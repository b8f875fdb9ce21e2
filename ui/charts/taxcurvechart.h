#pragma once

#include "core/queuemodel/simulator.h"
#include "ui/charts/chartpanel.h"

#include <QPointF>
#include <QString>
#include <QTimer>
#include <functional>
#include <vector>

class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace synctax {

// The simulated tax of syncing every n steps against the GPU time per step G, with D, H, L, K
// and Q held where the model has them: low at both ends (dispatch-bound, GPU-bound), a peak
// where D + H ≈ G. The model's own G is marked. Updates are debounced: setModel() within 50 ms
// of another costs one recomputation.
class TaxCurveChart : public ChartPanel {
    Q_OBJECT
public:
    explicit TaxCurveChart(QWidget* parent = nullptr);

    void setModel(const QueueModel& model, int64_t syncEveryN);
    // Recomputes now if an update is pending (tests, exports).
    void flush();

    static constexpr double minGMs = 0.05;
    static constexpr double maxGMs = 100;
    static constexpr int pointCount = 30;

    // The curve's points, G log-spaced over [minGMs, maxGMs], y from `taxAt` (G in ms -> tax in %).
    // Pure: a worker thread may call it.
    static std::vector<QPointF> sweep(const std::function<double(double gMs)>& taxAt);
    // Shows a curve computed elsewhere (the Teach window's replay of a recorded step, on its
    // worker), with its own point, legend and title; a pending recomputation of the model is dropped.
    void showCurve(const std::vector<QPointF>& curve, QPointF current, const QString& name, const QString& title);

    // x: G (ms), y: tax (%).
    const std::vector<QPointF>& curve() const { return m_curve; }
    QPointF current() const { return m_current; }
    double lastComputeMs() const { return m_lastComputeMs; }

private:
    void recompute();

    QueueModel m_model;
    int64_t m_syncEveryN = 1;
    QTimer m_debounce;
    QLineSeries* m_line = nullptr;
    QScatterSeries* m_point = nullptr;
    QLogValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    std::vector<QPointF> m_curve;
    QPointF m_current;
    double m_lastComputeMs = 0;
};

} // namespace synctax
