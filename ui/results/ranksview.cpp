#include "ui/results/ranksview.h"

#include "core/analysis/rankstall.h"
#include "core/results/runoutputs.h"
#include "core/results/stepcsvreader.h"
#include "ui/charts/rankstallchart.h"
#include "ui/results/ranksmodel.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace synctax {

RanksView::RanksView(QWidget* parent)
    : QWidget(parent)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_status(new QLabel(this))
    , m_spread(new QLabel(this))
    , m_chart(new RankStallChart(this))
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
    m_chart->setObjectName(QStringLiteral("rankStallChart"));
    m_proxy->setSortRole(RanksModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the runs' order until a header is clicked
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { showRow(current.isValid() ? m_proxy->mapToSource(current).row() : -1); });
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    // A row per cell: the table needs little height, the chart what is left.
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_status);
    layout->addWidget(m_spread);
    layout->addWidget(split, 1);
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

void RanksView::selectRow(int row)
{
    const QModelIndex index = m_model && row >= 0 ? m_proxy->mapFromSource(m_model->index(row, 0)) : QModelIndex();
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!index.isValid())
        showRow(-1);
}

bool RanksView::selectCell(const GroupKey& group, const std::string& style)
{
    for (int row = 0; m_model && row < m_model->rowCount(); ++row) {
        if (m_model->rowGroup(row) == group && m_model->rowStyle(row) == style) {
            selectRow(row);
            return true;
        }
    }
    return false;
}

void RanksView::refresh()
{
    const QString status = m_model ? m_model->statusText() : QString();
    const QString spread = m_model ? m_model->spreadText() : QString();
    m_status->setText(status);
    m_status->setVisible(!status.isEmpty());
    m_spread->setText(spread);
    m_spread->setVisible(!spread.isEmpty());
    loadRankFiles();
    // The row the sentence above is about, to begin with.
    const int worst = m_model ? m_model->worstRow() : -1;
    selectRow(worst >= 0 ? worst : m_model && m_model->rowCount() > 0 ? 0 : -1);
}

void RanksView::loadRankFiles()
{
    m_files.clear();
    if (!m_model || m_folder.isEmpty())
        return;
    for (const RankOutcome& r : m_model->ranks()) {
        RankFile file;
        file.rank = r.rank;
        file.path = QString::fromStdString(rankStepsPath(m_folder.toStdString(), r));
        if (!QFileInfo::exists(file.path)) {
            file.problem = tr("rank %1: no %2").arg(r.rank).arg(QDir::toNativeSeparators(file.path));
        } else if (StepsCsvLoadResult loaded = loadStepsCsvFile(file.path.toStdString()); loaded.steps) {
            file.log = std::move(*loaded.steps);
            if (r.rank != 0 && !file.log->hasCollectiveWait)
                file.problem = tr("rank %1's steps.csv has no collective_wait_ms column (written before it was "
                                  "recorded)")
                                   .arg(r.rank);
        } else {
            file.problem = tr("rank %1: %2").arg(r.rank).arg(QString::fromStdString(loaded.errors.front().format()));
        }
        m_files.push_back(std::move(file));
    }
}

void RanksView::showRow(int row)
{
    m_chartRow = m_model && row >= 0 && row < m_model->rowCount() ? row : -1;
    if (m_chartRow < 0) {
        m_chart->showNothing(m_model && m_model->hasRanks() ? tr("Select a row of the table.") : QString());
        return;
    }
    if (m_folder.isEmpty()) {
        m_chart->showNothing(tr("Step by step waits come from each rank's steps.csv beside the launcher's "
                                "results.json; these results were not opened from a file."));
        return;
    }
    std::vector<RankStepLog> logs;
    QStringList problems;
    for (const RankFile& f : m_files) {
        if (f.log)
            logs.push_back({ f.rank, &*f.log });
        if (!f.problem.isEmpty())
            problems << f.problem;
    }
    if (logs.empty()) {
        m_chart->showNothing(tr("The ranks' steps.csv files are not beside this results file, so their steps cannot "
                                "be shown (open the results.json in the folder synctax-run wrote, with its rank-K "
                                "folders): %1.")
                                 .arg(problems.join(QStringLiteral("; "))));
        return;
    }
    std::vector<RankStallLane> lanes
        = rankStallLanes(logs, m_model->rowGroup(m_chartRow), m_model->rowStyle(m_chartRow));
    m_chart->setLanes(std::move(lanes), m_model->rowName(m_chartRow), problems.join(QStringLiteral("; ")),
        tr("The ranks' steps.csv files have no measured steps of this cell."));
}

} // namespace synctax
