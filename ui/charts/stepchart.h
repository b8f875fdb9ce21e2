#pragma once

#include "core/config/sweepgrid.h"
#include "ui/charts/chartpanel.h"

#include <QString>
#include <cstdint>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace synctax {

class FittedLegend;
class RunHistory;

// Host step time of every style of one model and mode (at one point of a sweep), step by step,
// as the run goes: one line per style, the baseline ("none") thick and dark so the others read
// against it.
class StepChart : public ChartPanel {
    Q_OBJECT
public:
    explicit StepChart(QWidget* parent = nullptr);

    void setHistory(const RunHistory* history);
    const RunHistory* history() const { return m_history; }
    // The group's cells are drawn; `name` titles the chart (the app's name for the group).
    void setGroup(const GroupKey& group, const QString& name);
    // Called by the drain timer: redraws only when the history, the group or the width changed.
    void refresh();

    const GroupKey& group() const { return m_group; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void adaptToPlotArea() override;

private:
    struct Line {
        uint32_t cell = 0;
        QLineSeries* series = nullptr;
        size_t drawnSteps = 0;
        double ceiling = 0; // of this line's steps, for the y axis
    };

    std::vector<uint32_t> groupCells() const;

    void rebuildSeries(const std::vector<uint32_t>& cells);

    const RunHistory* m_history = nullptr;
    GroupKey m_group;
    QString m_name;
    std::vector<Line> m_lines;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    FittedLegend* m_legend = nullptr;
    uint64_t m_drawnVersion = 0;
    int m_drawnWidth = 0;
    uint32_t m_drawnRunId = 0;
    bool m_dirty = true;
};

} // namespace synctax
