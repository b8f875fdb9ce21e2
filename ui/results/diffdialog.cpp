#include "ui/results/diffdialog.h"

#include "core/results/resultsdiff.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/diffmodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace synctax {

DiffDialog::DiffDialog(
    const ExperimentResult& a, const QString& nameA, const ExperimentResult& b, const QString& nameB, QWidget* parent)
    : QDialog(parent)
    , m_model(new DiffModel(this))
    , m_table(new QTableView(this))
{
    setWindowTitle(tr("Compare runs"));
    m_model->setDiff(diffResults(a, b));

    auto* layout = new QVBoxLayout(this);
    auto* names
        = new QLabel(tr("<b>A</b>: %1<br><b>B</b>: %2").arg(nameA.toHtmlEscaped(), nameB.toHtmlEscaped()), this);
    names->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(names);
    auto* environment = new QLabel(environmentText(), this);
    environment->setObjectName(QStringLiteral("environment"));
    environment->setWordWrap(true);
    layout->addWidget(environment);
    auto* speed = new QLabel(speedText(), this);
    speed->setObjectName(QStringLiteral("speed"));
    speed->setWordWrap(true);
    speed->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(speed);

    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->resizeColumnsToContents();
    layout->addWidget(m_table, 1);

    auto* copy = new QAction(tr("Copy"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    m_table->addAction(copy);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(copy, &QAction::triggered, this, [this, proxy] {
        QModelIndexList selection = m_table->selectionModel()->selectedIndexes();
        if (selection.isEmpty())
            return;
        QApplication::clipboard()->setText(ComparisonModel::toTsv(proxy, selection));
    });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(1100, 640);
}

QString DiffDialog::speedText() const
{
    QStringList moved;
    for (const GroupDiff& g : m_model->diff().groups) {
        if (g.speedMoved())
            moved << QString::fromStdString(describeSpeedChange(g));
    }
    if (moved.isEmpty())
        return tr("Each model's baseline ran at the same speed in both runs (within noise).");
    return moved.join(QStringLiteral("\n"));
}

QString DiffDialog::environmentText() const
{
    const ResultsDiff& diff = m_model->diff();
    int differing = 0;
    for (const CellDiff& c : diff.cells)
        if (c.a && c.b && !c.intervalsOverlap())
            ++differing;
    QString text
        = tr("%1 cells; %2 whose intervals do not overlap (highlighted).").arg(diff.cells.size()).arg(differing);
    if (diff.environment.empty())
        return text + tr(" Same environment.");
    QStringList lines;
    for (const EnvironmentDiff& e : diff.environment)
        lines << QStringLiteral("%1: %2 → %3")
                     .arg(QString::fromStdString(e.field), QString::fromStdString(e.a), QString::fromStdString(e.b));
    return text + tr(" Environment differs — ") + lines.join(QStringLiteral("; "));
}

} // namespace synctax
