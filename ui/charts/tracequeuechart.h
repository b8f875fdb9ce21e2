#pragma once

#include "ui/charts/chartpanel.h"

#include <QStringList>

#include <cstdint>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace synctax {

class FittedLegend;
struct TraceReport;

// A recorded trace's GPU queue over time: the depth of each stream's queue (HTA's queue length)
// and how far each launch ran ahead of its GPU work (lag). Each series is min/max downsampled to
// the plot's width, so a trace of a million launches draws as fast as one of a thousand.
class TraceQueueChart : public ChartPanel {
    Q_OBJECT
public:
    explicit TraceQueueChart(QWidget* parent = nullptr);

    // `report` must outlive the chart's use of it; null clears the chart.
    void setReport(const TraceReport* report);
    // The time the x axis spans, 0 at `firstNs`: the timeline's, so that a time reads the same in
    // both. Unset (first >= last), the axis spans the queue's own changes, 0 at the first.
    void setTimeSpan(std::int64_t firstNs, std::int64_t lastNs);
    void refresh();
    // The legend's entries, as drawn.
    QStringList legendLabels() const;
    int streamSeriesCount() const { return int(m_streams.size()); }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void adaptToPlotArea() override;

private:
    const TraceReport* m_report = nullptr;
    std::vector<QLineSeries*> m_streams;
    QLineSeries* m_lag = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisDepth = nullptr;
    QValueAxis* m_axisLag = nullptr;
    FittedLegend* m_legend = nullptr;
    std::int64_t m_spanFirst = 0;
    std::int64_t m_spanLast = 0;
    int m_drawnWidth = 0;
};

} // namespace synctax
