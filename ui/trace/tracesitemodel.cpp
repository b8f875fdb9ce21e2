#include "ui/trace/tracesitemodel.h"

#include "core/analysis/format.h"
#include "ui/trace/tracestepmodel.h"

namespace synctax {

namespace {

QString number(const char* pattern, double v) { return QString::fromStdString(formatNumber(pattern, v)); }

} // namespace

TraceSiteModel::TraceSiteModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TraceSiteModel::setSites(std::vector<TraceSyncSite> sites)
{
    beginResetModel();
    m_sites = std::move(sites);
    endResetModel();
}

int TraceSiteModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_sites.size()); }

int TraceSiteModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TraceSiteModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TraceSyncSite& s = m_sites[size_t(index.row())];
    const QString python = s.python ? QString::fromStdString(*s.python) : QString();
    if (role == Qt::TextAlignmentRole)
        return index.column() <= Python ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == TraceRawRole) {
        switch (index.column()) {
        case Op:
            return QString::fromStdString(s.op);
        case Python:
            return python;
        case PerStep:
            return s.perStep;
        case WaitMs:
            return s.waitMs;
        case BubbleMs:
            return s.bubbleMs;
        case SharePct:
            return s.sharePct;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Python && !s.python)
        return tr("The trace has no Python stacks: record with torch.profiler.profile(with_stack=True)");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Op:
        return QString::fromStdString(s.op);
    case Python:
        return s.python ? python : tr("(no stack)");
    case PerStep:
        return number("%.2f", s.perStep);
    case WaitMs:
        return number("%.2f", s.waitMs);
    case BubbleMs:
        return number("%.2f", s.bubbleMs);
    case SharePct:
        return number("%.1f", s.sharePct);
    }
    return {};
}

QVariant TraceSiteModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const titles[ColumnCount]
        = { "op", "python line", "per step", "wait/step ms", "bubble/step ms", "share %" };
    static const char* const tips[ColumnCount] = { "The op that caused the sync",
        "Where in the Python code the op was called", "Syncs at this site per step", "Host wait per step",
        "GPU idle per step after this site's syncs", "Bubble per step over the mean step time" };
    if (role == Qt::DisplayRole)
        return tr(titles[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace synctax
