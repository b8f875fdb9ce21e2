#include "ui/runhistory.h"

namespace synctax {

void RunHistory::reset(std::vector<CellPlan> cells, uint32_t runId)
{
    m_cells = std::move(cells);
    m_history.assign(m_cells.size(), CellHistory {});
    m_runId = runId;
    m_totalSteps = 0;
    m_lastCell = -1;
    ++m_version;
}

void RunHistory::clear() { reset({}, 0); }

size_t RunHistory::append(const std::vector<StepRecord>& records)
{
    size_t kept = 0;
    for (const StepRecord& r : records) {
        if (r.runId != m_runId || r.round < 0 || r.cell >= m_history.size())
            continue;
        CellHistory& h = m_history[r.cell];
        h.stepMs.push_back(float(double(r.loggedNs - r.startNs) * 1e-6));
        h.lagMs.push_back(r.lagMs);
        h.queueSteps.push_back(r.queueSteps);
        h.round.push_back(r.round);
        h.stepInBlock.push_back(r.step);
        m_lastCell = int(r.cell);
        ++kept;
    }
    if (kept > 0) {
        m_totalSteps += kept;
        ++m_version;
    }
    return kept;
}

} // namespace synctax
