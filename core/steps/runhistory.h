#pragma once

#include "core/steps/cellplan.h"
#include "core/steps/steprecord.h"

#include <cstdint>
#include <vector>

namespace synctax {

// The measured steps of one cell, column by column: about 52 bytes a step, so a million steps
// stay in memory without trouble.
struct CellHistory {
    std::vector<float> stepMs; // host time of the step, start to logging done
    std::vector<float> lagMs; // how far the host ran ahead of the GPU; -1 when not measured
    std::vector<int32_t> queueSteps; // steps queued when this one was dispatched; -1 when not measured
    std::vector<int32_t> round;
    std::vector<uint32_t> stepInBlock;
    std::vector<int64_t> startNs; // the raw host and GPU times, for exports (timelines)
    std::vector<int64_t> dispatchedNs;
    std::vector<int64_t> loggedNs;
    std::vector<int64_t> gpuDoneNs;

    size_t size() const { return stepMs.size(); }
};

// Every measured step of the run on screen, per cell, fed from the step ring by the UI's drain timer.
// Warm-up and unmeasured steps (round < 0) are not kept; records of any other run are dropped.
class RunHistory {
public:
    void reset(std::vector<CellPlan> cells, uint32_t runId);
    void clear(); // no run: no cells

    // Returns the number of records kept.
    size_t append(const std::vector<StepRecord>& records);

    uint32_t runId() const { return m_runId; }
    const std::vector<CellPlan>& cells() const { return m_cells; }
    const CellHistory& cell(uint32_t index) const { return m_history.at(index); }
    uint64_t totalSteps() const { return m_totalSteps; }
    // Bumped by every change, so a view can skip redrawing what it already drew.
    uint64_t version() const { return m_version; }
    // Every kept step as the loop recorded it, cell by cell (for timeline exports).
    std::vector<StepRecord> records() const;
    // The cell most recently appended to; -1 before any.
    int lastCell() const { return m_lastCell; }

private:
    std::vector<CellPlan> m_cells;
    std::vector<CellHistory> m_history;
    uint32_t m_runId = 0;
    uint64_t m_totalSteps = 0;
    uint64_t m_version = 0;
    int m_lastCell = -1;
};

} // namespace synctax
