#include "core/steps/runhistory.h"

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
        h.startNs.push_back(r.startNs);
        h.dispatchedNs.push_back(r.dispatchedNs);
        h.loggedNs.push_back(r.loggedNs);
        h.gpuDoneNs.push_back(r.gpuDoneNs);
        m_lastCell = int(r.cell);
        ++kept;
    }
    if (kept > 0) {
        m_totalSteps += kept;
        ++m_version;
    }
    return kept;
}

std::vector<StepRecord> RunHistory::records() const
{
    std::vector<StepRecord> out;
    out.reserve(m_totalSteps);
    for (size_t c = 0; c < m_history.size(); ++c) {
        const CellHistory& h = m_history[c];
        for (size_t i = 0; i < h.size(); ++i) {
            StepRecord r;
            r.runId = m_runId;
            r.cell = uint32_t(c);
            r.round = h.round[i];
            r.step = h.stepInBlock[i];
            r.startNs = h.startNs[i];
            r.dispatchedNs = h.dispatchedNs[i];
            r.loggedNs = h.loggedNs[i];
            r.gpuDoneNs = h.gpuDoneNs[i];
            r.lagMs = h.lagMs[i];
            r.queueSteps = h.queueSteps[i];
            out.push_back(r);
        }
    }
    return out;
}

} // namespace synctax
