#include "ui/trace/tracesitemodel.h"

namespace synctax {

TraceSiteModel::TraceSiteModel(QObject* parent)
    : TraceTableModel(
        {
            { "op", "The op that caused the sync", nullptr, true },
            { "python line", "Where in the Python code the op was called", nullptr, true },
            { "per step", "Syncs at this site per step", "%.2f", false, "/step" },
            { "wait/step ms", "Host wait per step", "%.2f", false, "wait" },
            { "bubble/step ms", "GPU idle per step after this site's syncs", "%.2f", false, "bubble" },
            { "share %", "Bubble per step over the mean step time", "%.1f" },
        },
        parent)
{
}

void TraceSiteModel::setSites(std::vector<TraceSyncSite> sites)
{
    beginResetModel();
    m_sites = std::move(sites);
    endResetModel();
}

int TraceSiteModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_sites.size()); }

QVariant TraceSiteModel::raw(int row, int column) const
{
    const TraceSyncSite& s = m_sites[size_t(row)];
    switch (column) {
    case Op:
        return QString::fromStdString(s.op);
    case Python:
        return s.python ? QString::fromStdString(*s.python) : QString();
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

QVariant TraceSiteModel::display(int row, int column) const
{
    if (column == Python && !m_sites[size_t(row)].python)
        return tr("(no stack)");
    return TraceTableModel::display(row, column);
}

QVariant TraceSiteModel::toolTip(int row, int column) const
{
    if (column == Python && !m_sites[size_t(row)].python)
        return tr("The trace has no Python stacks: record with torch.profiler.profile(with_stack=True)");
    return {};
}

} // namespace synctax
