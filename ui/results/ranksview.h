#pragma once

#include "core/config/sweepgrid.h"
#include "core/steps/steplog.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace synctax {

class RanksModel;
class RankStallChart;

// The Ranks dock: each rank's status and how far rank 0's stall spreads (RanksModel::statusText,
// spreadText) in two lines above the rank-by-rank table, which sorts by the numbers; below it the
// stall chart of the selected row, step by step, from the ranks' steps.csv files beside the
// launcher's results.json.
class RanksView : public QWidget {
    Q_OBJECT
public:
    explicit RanksView(QWidget* parent = nullptr);

    // The view shows `model` through its own sort proxy; it does not take ownership.
    void setRanksModel(RanksModel* model);
    RanksModel* ranksModel() const { return m_model; }
    // The folder of the results.json shown, where each rank's steps.csv is looked for when the
    // model is next reset (rankStepsPath); empty for results not read from a file.
    void setResultsFolder(const QString& folder) { m_folder = folder; }

    QTableView* table() const { return m_table; }
    QLabel* spreadLabel() const { return m_spread; }
    RankStallChart* stallChart() const { return m_chart; }
    // The model's row the chart shows (the table's current row), or -1.
    int chartRow() const { return m_chartRow; }
    // Makes the model's row `row` the table's current one, and so the chart's.
    void selectRow(int row);
    // The same for the row of `group` and `style`; false when the table has none.
    bool selectCell(const GroupKey& group, const std::string& style);

private:
    struct RankFile {
        int rank = 0;
        QString path;
        std::optional<StepLog> log;
        QString problem; // why there is no log, or no wait in it
    };

    void refresh();
    void loadRankFiles();
    void showRow(int row);

    RanksModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_status;
    QLabel* m_spread;
    RankStallChart* m_chart;
    QString m_folder;
    std::vector<RankFile> m_files;
    int m_chartRow = -1;
};

} // namespace synctax
