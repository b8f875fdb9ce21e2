#pragma once

#include "core/analysis/tracereport.h"

#include <QAbstractTableModel>

#include <vector>

namespace synctax {

// One row per sync site of one rank, most bubble per step first (as the analysis orders them).
class TraceSiteModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Op, Python, PerStep, WaitMs, BubbleMs, SharePct, ColumnCount };

    explicit TraceSiteModel(QObject* parent = nullptr);

    void setSites(std::vector<TraceSyncSite> sites);
    const std::vector<TraceSyncSite>& sites() const { return m_sites; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<TraceSyncSite> m_sites;
};

} // namespace synctax
