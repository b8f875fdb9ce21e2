#include "core/analysis/liveresults.h"

#include "core/analysis/groupanalysis.h"
#include "core/statistics/statistics.h"

#include <algorithm>

namespace synctax {

void LiveResults::reset(
    const ExperimentConfig& config, const std::vector<CellPlan>& cells, const Environment& environment)
{
    m_result = ExperimentResult {};
    m_result.config = config;
    m_result.environment = environment;
    m_plans = cells;
    m_groupDone.assign(cells.size(), false);
    for (const CellPlan& plan : cells) {
        CellResult cell;
        cell.key() = plan.key();
        auto model = std::find_if(
            config.models.begin(), config.models.end(), [&](const ModelSpec& m) { return m.name == plan.model; });
        if (model != config.models.end())
            cell.stepsPerBlock = config.stepsPerBlockFor(*model);
        m_result.cells.push_back(cell);
    }
    m_dirty = true;
}

void LiveResults::addBlock(uint32_t cell, int round, double msPerStep)
{
    if (cell >= m_result.cells.size() || m_groupDone[cell])
        return;
    CellResult& r = m_result.cells[cell];
    r.blockRounds.push_back(round);
    r.blockStepMs.push_back(msPerStep);
    r.stepsMeasured += r.stepsPerBlock;
    m_dirty = true;
}

void LiveResults::finishGroup(const GroupResult& group, const std::vector<CellResult>& cells)
{
    for (const CellResult& done : cells) {
        for (size_t i = 0; i < m_result.cells.size(); ++i) {
            CellResult& cell = m_result.cells[i];
            if (sameGroup(cell, done) && cell.style == done.style) {
                cell = done;
                m_groupDone[i] = true;
            }
        }
    }
    m_result.groups.erase(std::remove_if(m_result.groups.begin(), m_result.groups.end(),
                              [&](const GroupResult& g) { return sameGroup(g, group); }),
        m_result.groups.end());
    m_result.groups.push_back(group);
    m_dirty = true;
}

ExperimentResult LiveResults::snapshot()
{
    m_dirty = false;
    ExperimentResult snap = m_result;
    // Groups still running: analyse the blocks so far, as the runner will at the end of the group.
    std::vector<GroupKey> running;
    for (size_t i = 0; i < snap.cells.size(); ++i) {
        const GroupKey key = groupKeyOf(snap.cells[i]);
        if (!m_groupDone[i] && std::find(running.begin(), running.end(), key) == running.end())
            running.push_back(key);
    }
    for (const GroupKey& key : running) {
        std::vector<CellResult*> cells;
        for (size_t i = 0; i < snap.cells.size(); ++i) {
            CellResult& c = snap.cells[i];
            if (groupKeyOf(c) != key)
                continue;
            if (!c.blockStepMs.empty()) {
                c.stepMs.median = median(c.blockStepMs);
                c.stepMs.mean = mean(c.blockStepMs);
            }
            cells.push_back(&c);
        }
        const bool anyBlocks
            = std::any_of(cells.begin(), cells.end(), [](const CellResult* c) { return !c->blockStepMs.empty(); });
        if (!anyBlocks)
            continue;
        GroupResult group;
        group.groupKey() = key;
        group.stopReason = "running";
        analyseGroup(cells, group, snap.config.seed);
        group.rounds = 0;
        for (const CellResult* c : cells)
            group.rounds = std::max(group.rounds, int(c->blockRounds.size()));
        snap.groups.push_back(group);
    }
    return snap;
}

} // namespace synctax
