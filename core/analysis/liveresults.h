#pragma once

#include "core/analysis/experimentresult.h"
#include "core/steps/cellplan.h"

#include <cstdint>
#include <vector>

namespace synctax {

// The results of a run while it runs: blocks arrive one by one, groups (a model and mode) arrive
// whole when they finish. snapshot() analyses what is there with the same statistics as the
// runner, so the table and the overhead chart fill in as the rounds come.
class LiveResults {
public:
    void reset(const ExperimentConfig& config, const std::vector<CellPlan>& cells, const Environment& environment);

    void addBlock(uint32_t cell, int round, double msPerStep);
    void finishGroup(const GroupResult& group, const std::vector<CellResult>& cells);

    // Changes since the last snapshot().
    bool dirty() const { return m_dirty; }
    ExperimentResult snapshot();

private:
    ExperimentResult m_result;
    std::vector<CellPlan> m_plans;
    std::vector<bool> m_groupDone; // per cell: its group has finished and holds final numbers
    bool m_dirty = false;
};

} // namespace synctax
