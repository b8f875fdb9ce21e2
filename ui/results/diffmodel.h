#pragma once

#include "core/results/resultsdiff.h"

#include <QAbstractTableModel>

namespace synctax {

// Two runs cell by cell, as `synctax-run diff` prints them: both estimates, B - A, and whether the
// two intervals overlap. Rows where they do not are the ones that differ beyond noise.
class DiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Model, Mode, Style, MsA, OverheadA, MsB, OverheadB, Difference, Overlap, ColumnCount };

    explicit DiffModel(QObject* parent = nullptr);
    void setDiff(ResultsDiff diff);
    const ResultsDiff& diff() const { return m_diff; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultsDiff m_diff;
};

} // namespace synctax
