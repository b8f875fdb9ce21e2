#pragma once

#include "ui/charts/chartpanel.h"

#include <QString>

#include <cstddef>
#include <vector>

class QScatterSeries;
class QValueAxis;

namespace synctax {

class FittedLegend;

// A probe's steps, one after the other, as its run folder gives them (a followed training job):
// the host's time in each phase stacked (forward, backward, optimizer step, their own work) with
// the loop's sync waits on top, so the stack's top is the step's host time; the GPU's time per
// step drawn beside them as points. Decimated to the plot's width (the slowest step of every
// three pixels, the title says so), the last step always drawn; steps that were not timed one by
// one are a gap.
class PhaseStepChart : public ChartPanel {
    Q_OBJECT
public:
    // Columns of equal length, owned by the caller and kept alive while shown; `total` is the
    // step's host time (the stack's top), `gpu` < 0 where unknown.
    struct Columns {
        const std::vector<double>* step = nullptr;
        const std::vector<float>* forward = nullptr;
        const std::vector<float>* backward = nullptr;
        const std::vector<float>* optimizer = nullptr;
        const std::vector<float>* total = nullptr;
        const std::vector<float>* gpu = nullptr;
    };

    explicit PhaseStepChart(QWidget* parent = nullptr);

    void setColumns(const Columns& columns);
    void setSubtitle(const QString& text);
    // Redraws when the columns grew or the width changed: once per drain at most.
    void refresh();

    // What is drawn: the last step's number (-1: none) and the points of the stack's top.
    double lastDrawnStep() const { return m_lastStep; }
    int drawnPoints() const;
    int drawnGpuPoints() const;

    // The title's last line: where steps were only counted, what the chart's gaps are (empty: none).
    const QString& gapNote() const { return m_gapNote; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void adaptToPlotArea() override;

private:
    void updateTitle();

    Columns m_columns;
    class StackedColumns;
    StackedColumns* m_bands = nullptr; // owned by the chart
    QScatterSeries* m_gpu = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    FittedLegend* m_legend = nullptr;
    QString m_subtitle;
    QString m_gapNote; // where steps were only counted, what the gaps are
    size_t m_drawnCount = 0;
    int m_drawnWidth = 0;
    double m_lastStep = -1;
};

} // namespace synctax
