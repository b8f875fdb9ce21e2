#pragma once

#include "core/analysis/experimentresult.h"

#include <QDialog>

class QTableView;

namespace synctax {

class DiffModel;

// Two results side by side: every cell's estimates in both runs and whether they agree, with the
// environment differences above (another GPU, driver or LibTorch explains a lot).
class DiffDialog : public QDialog {
    Q_OBJECT
public:
    DiffDialog(const ExperimentResult& a, const QString& nameA, const ExperimentResult& b, const QString& nameB,
        QWidget* parent = nullptr);

    DiffModel* model() const { return m_model; }
    QString environmentText() const;
    // The models whose baseline ran at another speed in B, with their regimes; a sync's tax moves
    // with the speed, so such cells can differ beyond their intervals.
    QString speedText() const;

private:
    DiffModel* m_model;
    QTableView* m_table;
};

} // namespace synctax
