#pragma once

#include "ui/charts/chartpanel.h"

#include <cstdint>
#include <string>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace synctax {

class RunHistory;
struct ExperimentConfig;
struct StyleSpec;

// The GPU queue of one cell over its last steps: how far the host runs ahead of the GPU (lag),
// how many steps are queued, and where the style makes the host wait. Under `item` the queue
// collapses at every step; under `none` it stays deep.
class QueueChart : public ChartPanel {
    Q_OBJECT
public:
    explicit QueueChart(QWidget* parent = nullptr);

    // The steps shown: the last ones of the cell.
    static constexpr size_t windowSteps = 2000;
    static constexpr int markerSlotPixels = 6; // at most one sync marker per this many pixels

    // `config` is the run's, for the styles' n and the steps per block; it may be null.
    void setHistory(const RunHistory* history, const ExperimentConfig* config);
    // -1 follows the cell most recently appended to.
    void setCell(int index);
    void refresh();

    int shownCell() const { return m_shownCell; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int currentCell() const;
    StyleSpec styleSpecOf(const std::string& style) const;
    int64_t stepsPerBlockOf(const std::string& model) const;
    void clearSeries();

    const RunHistory* m_history = nullptr;
    const ExperimentConfig* m_config = nullptr;
    int m_cell = -1;
    int m_shownCell = -1;
    QLineSeries* m_lag = nullptr;
    QLineSeries* m_queue = nullptr;
    QScatterSeries* m_syncs = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisLag = nullptr;
    QValueAxis* m_axisQueue = nullptr;
    uint64_t m_drawnVersion = 0;
    int m_drawnWidth = 0;
    bool m_dirty = true;
};

} // namespace synctax
