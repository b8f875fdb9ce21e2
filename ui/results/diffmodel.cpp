#include "ui/results/diffmodel.h"

#include "core/results/resulttable.h"

#include <QBrush>
#include <QColor>
#include <QFontDatabase>

namespace synctax {

namespace {

QString overheadText(const CellDiff& c, const std::optional<Interval>& pct, bool missing)
{
    if (missing)
        return QStringLiteral("—");
    if (!pct)
        return c.style == "none" ? QStringLiteral("baseline") : QString();
    return QString::fromStdString(formatOverhead(*pct));
}

} // namespace

DiffModel::DiffModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DiffModel::setDiff(ResultsDiff diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

int DiffModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_diff.cells.size()); }

int DiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DiffModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const CellDiff& c = m_diff.cells[size_t(index.row())];
    const bool both = c.a && c.b;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Model:
            return QString::fromStdString(c.model + c.sweepPoint);
        case Mode:
            return QString::fromStdString(c.mode);
        case Style:
            return QString::fromStdString(c.style);
        case MsA:
            return c.onlyInB ? QStringLiteral("—") : QString::number(c.msA, 'f', 3);
        case OverheadA:
            return overheadText(c, c.a, c.onlyInB);
        case MsB:
            return c.onlyInA ? QStringLiteral("—") : QString::number(c.msB, 'f', 3);
        case OverheadB:
            return overheadText(c, c.b, c.onlyInA);
        case Difference:
            return both ? QString::asprintf("%+.1f", c.b->estimate - c.a->estimate) : QString();
        case Overlap:
            if (c.onlyInA)
                return tr("only in A");
            if (c.onlyInB)
                return tr("only in B");
            return both ? (c.intervalsOverlap() ? tr("yes") : tr("no")) : QString();
        }
    }
    if (role == Qt::UserRole && index.column() == Difference && both)
        return c.b->estimate - c.a->estimate;
    if (role == Qt::BackgroundRole && both && !c.intervalsOverlap())
        return QBrush(QColor(0xf6, 0xc8, 0x9c)); // beyond the noise of either run
    if (role == Qt::FontRole && index.column() >= MsA)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::TextAlignmentRole && index.column() >= MsA)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = { "model", "mode", "style", "A ms/step", "A overhead", "B ms/step", "B overhead",
        "B - A (pp)", "intervals overlap" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace synctax
