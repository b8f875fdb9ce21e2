#pragma once

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace synctax {

class RanksModel;

// The Ranks dock: each rank's status and how far rank 0's stall spreads (RanksModel::statusText,
// spreadText) in two lines above the rank-by-rank table, which sorts by the numbers.
class RanksView : public QWidget {
    Q_OBJECT
public:
    explicit RanksView(QWidget* parent = nullptr);

    // The view shows `model` through its own sort proxy; it does not take ownership.
    void setRanksModel(RanksModel* model);
    RanksModel* ranksModel() const { return m_model; }

    QTableView* table() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* spreadLabel() const { return m_spread; }

private:
    void refresh();

    RanksModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_status;
    QLabel* m_spread;
};

} // namespace synctax
