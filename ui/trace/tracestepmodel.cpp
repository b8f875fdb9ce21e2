#include "ui/trace/tracestepmodel.h"

namespace synctax {

TraceStepModel::TraceStepModel(QObject* parent)
    : TraceTableModel(
        {
            { "step", "The ProfilerStep#N annotation, or the whole trace", nullptr, true },
            { "step ms", "The step's wall time", "%.2f", false, "ms" },
            { "dispatch ms", "D: host time inside the step's launch calls", "%.2f", false, "D ms" },
            { "GPU busy ms", "G: the union of the step's GPU work", "%.2f", false, "G ms" },
            { "launches", "K: kernels, copies and memsets launched", nullptr, false, "K" },
            { "syncs", "Syncs in the step" },
            { "wait ms", "Host time inside the step's syncs", "%.2f", false, "wait" },
            { "bubble ms", "GPU idle after the step's syncs, until the next GPU op", "%.2f", false, "bubble" },
            { "tax %", "Bubble over step time: the tax as it happened", "%.1f" },
            { "queue max", "The deepest queue on any stream in the step", nullptr, false, "queue" },
            { "lag ms", "How far the host ran ahead of the GPU at the step's end", "%.2f", false, "lag" },
        },
        parent)
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

QVariant TraceStepModel::raw(int row, int column) const
{
    const TraceStep& s = m_steps[size_t(row)];
    switch (column) {
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

QVariant TraceStepModel::display(int row, int column) const
{
    // "#12" for "ProfilerStep#12", as synctax-run trace writes it: the column stays narrow.
    if (column == Step) {
        const std::string& name = m_steps[size_t(row)].name;
        const size_t hash = name.rfind('#');
        if (name.rfind("ProfilerStep", 0) == 0 && hash != std::string::npos)
            return QString::fromStdString(name.substr(hash));
    }
    return TraceTableModel::display(row, column);
}

} // namespace synctax
