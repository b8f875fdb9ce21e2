#include "ui/trace/tracestepmodel.h"

#include "core/analysis/format.h"

namespace synctax {

namespace {

QString number(const char* pattern, double v) { return QString::fromStdString(formatNumber(pattern, v)); }

} // namespace

TraceStepModel::TraceStepModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TraceStepModel::setSteps(std::vector<TraceStep> steps)
{
    beginResetModel();
    m_steps = std::move(steps);
    endResetModel();
}

void TraceStepModel::appendSteps(const std::vector<TraceStep>& steps)
{
    if (steps.empty())
        return;
    beginInsertRows({}, int(m_steps.size()), int(m_steps.size() + steps.size()) - 1);
    m_steps.insert(m_steps.end(), steps.begin(), steps.end());
    endInsertRows();
}

int TraceStepModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_steps.size()); }

int TraceStepModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TraceStepModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TraceStep& s = m_steps[size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == Step ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == TraceRawRole) {
        switch (index.column()) {
        case Step:
            return QString::fromStdString(s.name);
        case StepMs:
            return s.stepMs;
        case DispatchMs:
            return s.dispatchMs;
        case GpuBusyMs:
            return s.gpuBusyMs;
        case Launches:
            return s.launches;
        case Syncs:
            return s.syncs;
        case WaitMs:
            return s.syncWaitMs;
        case BubbleMs:
            return s.syncBubbleMs;
        case TaxPct:
            return s.taxPct;
        case QueueMax:
            return s.queueMax;
        case LagMs:
            return s.lagMs;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Step:
        return QString::fromStdString(s.name);
    case StepMs:
        return number("%.2f", s.stepMs);
    case DispatchMs:
        return number("%.2f", s.dispatchMs);
    case GpuBusyMs:
        return number("%.2f", s.gpuBusyMs);
    case Launches:
        return s.launches;
    case Syncs:
        return s.syncs;
    case WaitMs:
        return number("%.2f", s.syncWaitMs);
    case BubbleMs:
        return number("%.2f", s.syncBubbleMs);
    case TaxPct:
        return number("%.1f", s.taxPct);
    case QueueMax:
        return s.queueMax;
    case LagMs:
        return number("%.2f", s.lagMs);
    }
    return {};
}

QVariant TraceStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const titles[ColumnCount] = { "step", "step ms", "dispatch ms", "GPU busy ms", "launches",
        "syncs", "wait ms", "bubble ms", "tax %", "queue max", "lag ms" };
    static const char* const tips[ColumnCount] = { "The ProfilerStep#N annotation, or the whole trace",
        "The step's wall time", "D: host time inside the step's launch calls", "G: the union of the step's GPU work",
        "K: kernels, copies and memsets launched", "Syncs in the step", "Host time inside the step's syncs",
        "GPU idle after the step's syncs, until the next GPU op", "Bubble over step time: the tax as it happened",
        "The deepest queue on any stream in the step", "How far the host ran ahead of the GPU at the step's end" };
    if (role == Qt::DisplayRole)
        return tr(titles[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace synctax
