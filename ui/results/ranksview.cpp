#include "ui/results/ranksview.h"

#include "ui/results/ranksmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace synctax {

RanksView::RanksView(QWidget* parent)
    : QWidget(parent)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_status(new QLabel(this))
    , m_spread(new QLabel(this))
{
    // Model and style names come from the results file: never read them as markup.
    for (QLabel* label : { m_status, m_spread }) {
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setContentsMargins(6, 3, 6, 3);
    }
    m_status->setObjectName(QStringLiteral("rankStatus"));
    m_spread->setObjectName(QStringLiteral("rankSpread"));
    m_table->setObjectName(QStringLiteral("ranksTable"));
    m_proxy->setSortRole(RanksModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the runs' order until a header is clicked
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_status);
    layout->addWidget(m_spread);
    layout->addWidget(m_table, 1);
}

void RanksView::setRanksModel(RanksModel* model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_proxy->setSourceModel(model);
    if (model)
        connect(model, &QAbstractItemModel::modelReset, this, &RanksView::refresh);
    refresh();
}

void RanksView::refresh()
{
    const QString status = m_model ? m_model->statusText() : QString();
    const QString spread = m_model ? m_model->spreadText() : QString();
    m_status->setText(status);
    m_status->setVisible(!status.isEmpty());
    m_spread->setText(spread);
    m_spread->setVisible(!spread.isEmpty());
}

} // namespace synctax
