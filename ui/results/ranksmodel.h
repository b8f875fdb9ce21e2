#pragma once

#include "core/analysis/experimentresult.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace synctax {

// A data-parallel run's cells rank by rank (result.distributed): one row per model, mode and style
// (and point of a sweep), then for each rank, rank 0 first, its tax against the baseline and the
// median time it waited in the gradient all-reduce per step, then the same cell's tax in one
// process. What the runner's per-rank table (formatRankTable) prints, as a table to sort and read.
class RanksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Numeric value to sort by: the tax estimate in percent (0 for the baseline), the wait in ms.
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int leadingColumns = 2; // the model (its mode where the run has several), the style

    explicit RanksModel(QObject* parent = nullptr);

    // Empty for a result without a `distributed` section of the launcher's (every rank's cells).
    void setResult(const ExperimentResult& result);
    void clear();
    bool hasRanks() const { return !m_ranks.empty(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The columns of rank `rankIndex` (0: the lowest rank) and of the single-process tax; -1 out of range.
    int taxColumn(int rankIndex) const;
    int waitColumn(int rankIndex) const;
    int singleProcessColumn() const;
    int rankCount() const { return int(m_ranks.size()); }

    // Each rank's status, "rank 0: ok · rank 1: hung (killed after 30 s)", for a line above the table.
    QString statusText() const;
    // How the stall spreads, computed from the cells: for the style that costs rank 0 the most, its
    // tax there and how much longer each other rank waits in the all-reduce than under the baseline.
    // Empty when there is no such style or no wait was measured.
    QString spreadText() const;
    // How much longer rank `rankIndex` waits per step in this row than in the baseline of the same
    // group (median ms); none when either wait is missing.
    std::optional<double> extraWaitMs(int row, int rankIndex) const;
    // The row of the style that costs rank 0 the most (the one spreadText names); -1 when none has a tax.
    int worstRow() const;

    // What row `row` shows, for the stall chart: its group and style, and "model · mode · style".
    GroupKey rowGroup(int row) const { return m_rows.at(size_t(row)).group; }
    std::string rowStyle(int row) const { return m_rows.at(size_t(row)).style; }
    QString rowName(int row) const;
    // The ranks, rank 0 first, as the launcher's results hold them (their status, folder and cells).
    const std::vector<RankOutcome>& ranks() const { return m_ranks; }

private:
    struct Row {
        GroupKey group;
        std::string style;
    };
    const CellResult* cellOf(
        const std::vector<CellResult>& cells, const GroupKey& group, const std::string& style) const;
    const CellResult* rankCell(int row, int rankIndex) const;
    QString groupName(const GroupKey& group) const;

    std::vector<Row> m_rows;
    std::vector<RankOutcome> m_ranks; // sorted by rank
    std::vector<CellResult> m_single;
    SweptKeys m_swept;
    bool m_manyModes = false;
};

} // namespace synctax
