#include "ui/results/comparisonview.h"

#include "ui/results/comparisonmodel.h"

#include <QAction>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QMenu>
#include <QSortFilterProxyModel>

#include <algorithm>

namespace synctax {

ComparisonView::ComparisonView(QWidget* parent)
    : QTableView(parent)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_copyAction(new QAction(tr("Copy"), this))
{
    m_proxy->setSortRole(ComparisonModel::SortRole);
    // Live snapshots re-sort as the estimates move.
    m_proxy->setDynamicSortFilter(true);
    setModel(m_proxy);
    setSortingEnabled(true);
    // Unsorted until the user clicks a header: the catalog order of the model.
    sortByColumn(-1, Qt::AscendingOrder);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setWordWrap(false);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setHighlightSections(false);

    // Shown in the menu only; the key itself is handled in keyPressEvent, which outranks the
    // base class's copy of the current cell alone.
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutVisibleInContextMenu(true);
    connect(m_copyAction, &QAction::triggered, this, &ComparisonView::copySelection);

    connect(m_proxy, &QAbstractItemModel::modelReset, this, &QTableView::resizeColumnsToContents);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &ComparisonView::widenColumnsToContents);
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (!m_model || !current.isValid())
            return;
        const QModelIndex source = m_proxy->mapToSource(current);
        const int column = source.column();
        if (column < 1)
            return;
        Q_EMIT groupSelected(m_model->modelOfColumn(column), m_model->modeOfColumn(column));
        Q_EMIT cellSelected(
            m_model->modelOfColumn(column), m_model->modeOfColumn(column), m_model->styleOfRow(source.row()));
    });
}

void ComparisonView::setComparisonModel(ComparisonModel* model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    resizeColumnsToContents();
}

QString ComparisonView::selectionAsTsv() const
{
    return ComparisonModel::toTsv(m_proxy, selectionModel()->selectedIndexes());
}

void ComparisonView::copySelection()
{
    const QString text = selectionAsTsv();
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

void ComparisonView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

void ComparisonView::contextMenuEvent(QContextMenuEvent* event)
{
    m_copyAction->setEnabled(selectionModel()->hasSelection());
    QMenu menu(this);
    menu.addAction(m_copyAction);
    menu.exec(event->globalPos());
}

// Live updates change the digits many times a second: growing only keeps the columns from jittering.
void ComparisonView::widenColumnsToContents()
{
    for (int column = 0; column < m_proxy->columnCount(); ++column) {
        const int wanted = std::max(sizeHintForColumn(column), horizontalHeader()->sectionSizeHint(column));
        if (wanted > columnWidth(column))
            setColumnWidth(column, wanted);
    }
}

} // namespace synctax
