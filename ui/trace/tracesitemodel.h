#pragma once

#include "core/trace/tracereport.h"
#include "ui/trace/tracetablemodel.h"

#include <vector>

namespace synctax {

// One row per sync site of one rank, most bubble per step first (as the analysis orders them).
class TraceSiteModel : public TraceTableModel {
    Q_OBJECT
public:
    enum Column { Op, Python, PerStep, WaitMs, BubbleMs, SharePct, ColumnCount };

    explicit TraceSiteModel(QObject* parent = nullptr);

    void setSites(std::vector<TraceSyncSite> sites);
    const std::vector<TraceSyncSite>& sites() const { return m_sites; }

    int rowCount(const QModelIndex& parent = {}) const override;

protected:
    QVariant raw(int row, int column) const override;
    QVariant display(int row, int column) const override;
    QVariant toolTip(int row, int column) const override;

private:
    std::vector<TraceSyncSite> m_sites;
};

} // namespace synctax
