#pragma once

#include "core/config/sweepgrid.h"

#include <QTableView>

class QAction;
class QLabel;
class QSortFilterProxyModel;

namespace synctax {

class ComparisonModel;

// The comparison table, sortable by the overhead estimate, with Ctrl+C and a context menu that
// copy the selection as tab-separated text (headers included) for a spreadsheet or a bug report.
// A legend of the cell colours sits under the rows; a banner above the header says when a model is
// too noisy to tell styles apart (ComparisonModel::noiseWarning).
class ComparisonView : public QTableView {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    // The view shows `model` through its own sort proxy; it does not take ownership.
    void setComparisonModel(ComparisonModel* model);
    ComparisonModel* comparisonModel() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }

    // The selection as ComparisonModel::toTsv writes it, in the order the view shows.
    QString selectionAsTsv() const;

    QString legendText() const;
    QString bannerText() const; // empty while hidden
    QLabel* legendLabel() const { return m_legend; }
    QLabel* bannerLabel() const { return m_banner; }

public Q_SLOTS:
    void copySelection();

Q_SIGNALS:
    // The current cell moved to the column of this group (a model and mode at one host work and batch).
    void groupSelected(const synctax::GroupKey& group);
    // The current cell moved to this group and style.
    void cellSelected(const synctax::GroupKey& group, const QString& style);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void updateGeometries() override;

private:
    void widenColumnsToContents();
    void refreshBanner();

    ComparisonModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QAction* m_copyAction;
    QLabel* m_banner;
    QLabel* m_legend;
    bool m_placingNotes = false;
};

} // namespace synctax
