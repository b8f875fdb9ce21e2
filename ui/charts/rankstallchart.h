#pragma once

#include "core/analysis/rankstall.h"
#include "ui/charts/chartpanel.h"

#include <QString>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace synctax {

// How rank 0's stall spreads in one cell of a data-parallel run: over the cell's measured steps, in
// the order they ran, rank 0's step time and each rank's time blocked in the all-reduce, on one
// time axis (rankStallLanes). When rank 0 stalls, the others' waits grow in the same steps while
// its own stays low.
class RankStallChart : public ChartPanel {
    Q_OBJECT
public:
    explicit RankStallChart(QWidget* parent = nullptr);

    // Draws `lanes` of the cell called `cellName`; `note`, when not empty, under the title (the
    // ranks that have no lane, and why). No lanes: the placeholder says `whyNone`.
    void setLanes(std::vector<RankStallLane> lanes, const QString& cellName, const QString& note = {},
        const QString& whyNone = {});
    // Nothing to draw, and why (no steps.csv beside the results), in words over the plot.
    void showNothing(const QString& why);

    const std::vector<RankStallLane>& lanes() const { return m_lanes; }
    // The series of lane `index` as drawn (objectName "rank<K>:step" or "rank<K>:wait").
    QLineSeries* series(size_t index) const { return index < m_series.size() ? m_series[index] : nullptr; }
    static QString laneName(const RankStallLane& lane);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void redraw();

    std::vector<RankStallLane> m_lanes;
    std::vector<QLineSeries*> m_series; // per lane
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    int m_drawnWidth = 0;
};

} // namespace synctax
