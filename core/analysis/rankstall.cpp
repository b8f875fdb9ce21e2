#include "core/analysis/rankstall.h"

#include <algorithm>

namespace synctax {

namespace {

// The records of the cell's measured steps, in the order they started.
std::vector<const StepRecord*> measuredSteps(const StepLog& log, const GroupKey& group, const std::string& style)
{
    std::vector<const StepRecord*> steps;
    const auto cell = std::find_if(log.cells.begin(), log.cells.end(),
        [&](const CellPlan& c) { return groupKeyOf(c) == group && c.style == style; });
    if (cell == log.cells.end())
        return steps;
    const uint32_t index = uint32_t(cell - log.cells.begin());
    for (const StepRecord& r : log.records) {
        if (r.cell == index && r.round >= 0)
            steps.push_back(&r);
    }
    std::stable_sort(
        steps.begin(), steps.end(), [](const StepRecord* a, const StepRecord* b) { return a->startNs < b->startNs; });
    return steps;
}

} // namespace

std::vector<RankStallLane> rankStallLanes(
    const std::vector<RankStepLog>& ranks, const GroupKey& group, const std::string& style)
{
    std::vector<RankStepLog> sorted = ranks;
    std::stable_sort(
        sorted.begin(), sorted.end(), [](const RankStepLog& a, const RankStepLog& b) { return a.rank < b.rank; });
    std::vector<RankStallLane> lanes;
    for (const RankStepLog& r : sorted) {
        if (!r.steps)
            continue;
        const std::vector<const StepRecord*> steps = measuredSteps(*r.steps, group, style);
        if (steps.empty())
            continue;
        if (r.rank == 0) {
            RankStallLane lane { 0, RankStallLane::Kind::StepTime, {} };
            for (const StepRecord* s : steps)
                lane.ms.push_back(double(s->loggedNs - s->startNs) * 1e-6);
            lanes.push_back(std::move(lane));
        }
        if (r.steps->hasCollectiveWait) {
            RankStallLane lane { r.rank, RankStallLane::Kind::CollectiveWait, {} };
            for (const StepRecord* s : steps)
                lane.ms.push_back(s->collectiveWaitMs);
            lanes.push_back(std::move(lane));
        }
    }
    return lanes;
}

} // namespace synctax
