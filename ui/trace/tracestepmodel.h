#pragma once

#include "core/analysis/tracereport.h"

#include <QAbstractTableModel>

#include <vector>

namespace synctax {

// The role that gives a cell's number unrounded (CSV export, sorting); DisplayRole is rounded text.
constexpr int TraceRawRole = Qt::UserRole + 1;

// One row per step of one rank: the steps of every file of that rank, in order (a watched folder
// appends a file's steps as it lands).
class TraceStepModel : public QAbstractTableModel {
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
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<TraceStep> m_steps;
};

} // namespace synctax
