// The parts of ExperimentRunner that keep a data-parallel rank in step with the others.
#include "core/engine/run/experimentrunner.h"

#include "core/engine/run/errortext.h"
#include "core/engine/run/grouprun.h"
#include "core/engine/styles/loggingstyle.h"

#include <torch/torch.h>

namespace synctax {

bool ExperimentRunner::agreeOnCells(GroupRun& run)
{
    // A cell runs on every rank or on none: one that failed to start on a rank fails on all.
    try {
        for (CellRun& cell : run.cells) {
            if (lockstep->anyRank(!cell.style) && cell.style)
                run.fail(cell, "failed on another rank (its results say why)");
        }
    } catch (const std::exception& e) {
        m_lockstepLost = errorText(e);
        return false;
    }
    return true;
}

bool ExperimentRunner::roundsDoneTogether(GroupRun& run, int round, int64_t& lastCheckNs, const std::atomic<bool>& stop)
{
    // Each rank's own answer, then the ranks' together: the rounds end for all once one says so.
    const bool mine = roundsDone(run, round, lastCheckNs);
    if (!m_lockstepLost.empty())
        return true;
    try {
        m_lockstepStopped = m_lockstepStopped || lockstep->anyRank(stop.load());
        return lockstep->anyRank(mine) || m_lockstepStopped;
    } catch (const std::exception& e) {
        // What was measured so far is kept; the cells of the blocks that failed say why.
        m_lockstepLost = errorText(e);
        return true;
    }
}

} // namespace synctax
