#pragma once

#include "core/trace/tracereport.h"
#include "ui/trace/tracetablemodel.h"

#include <vector>

namespace synctax {

// One row per step of one rank: the steps of every file of that rank, in order (a watched folder
// appends a file's steps as it lands).
class TraceStepModel : public TraceTableModel {
    Q_OBJECT
public:
    enum Column {
        Step,
        StepMs,
        DispatchMs,
        GpuBusyMs,
        Launches,
        Syncs,
        WaitMs,
        BubbleMs,
        TaxPct,
        QueueMax,
        LagMs,
        ColumnCount
    };

    explicit TraceStepModel(QObject* parent = nullptr);

    void setSteps(std::vector<TraceStep> steps);
    void appendSteps(const std::vector<TraceStep>& steps);
    const std::vector<TraceStep>& steps() const { return m_steps; }

    int rowCount(const QModelIndex& parent = {}) const override;

protected:
    QVariant raw(int row, int column) const override;
    QVariant display(int row, int column) const override;

private:
    std::vector<TraceStep> m_steps;
};

} // namespace synctax
