#pragma once

#include "core/queuemodel/simulator.h"

#include <QMap>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <vector>

namespace synctax {

// The map of the middle regime: the simulated tax of `item` (a sync every step) over a grid of
// G / (D + H) (columns, log-spaced 0.1…10) and H (rows, 0…10 ms), with D, L, K and Q taken from
// the model, white (no tax) to red (100% and above). The model's own point is marked with a cross.
// A grid is computed once per (D, L, K, Q), 50 ms after the last change, and cached: moving G or H
// only moves the cross.
class RegimeHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit RegimeHeatmap(QWidget* parent = nullptr);

    void setModel(const QueueModel& model);
    // Computes now if an update is pending (tests, exports).
    void flush();

    static constexpr int columns = 17;
    static constexpr int rows = 11;
    static double ratioAt(int column); // G / (D + H)
    static double hostWorkMsAt(int row); // H
    // A grid's cells, row-major from H = 0, from `taxAt` (G / (D + H), H in ms -> tax in %). Pure:
    // a worker thread may call it.
    static std::vector<double> computeGrid(const std::function<double(double ratio, double hostWorkMs)>& taxAt);
    // Shows a grid computed elsewhere (the Teach window's replay of a recorded step, on its worker)
    // under `subtitle`; an empty grid reads "computing…". The model places the cross. A pending
    // recomputation of the uniform model is dropped; setModel() returns to it.
    void showGrid(const QueueModel& model, std::vector<double> grid, const QString& subtitle);

    // The tax (%) in a cell; NaN until the grid is computed.
    double taxAt(int column, int row) const;
    bool isComputed() const { return !m_grid.empty(); }
    double lastComputeMs() const { return m_lastComputeMs; }

    QSize sizeHint() const override { return QSize(560, 380); }
    QSize minimumSizeHint() const override { return QSize(420, 300); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void recompute();
    QString cacheKey() const;

    QueueModel m_model;
    QTimer m_debounce;
    std::vector<double> m_grid; // row-major, row 0 is H = 0
    QMap<QString, std::vector<double>> m_cache;
    double m_lastComputeMs = 0;
    QString m_subtitle; // set by showGrid(); empty: the uniform model's D, L, K and Q
};

} // namespace synctax
