#include "core/steps/runprogress.h"

#include <algorithm>

namespace synctax {

double RunProgress::fraction() const
{
    if (remainingS >= 0 && elapsedS + remainingS > 0)
        return elapsedS / (elapsedS + remainingS);
    return blocksTotal > 0 ? double(blocksDone) / double(blocksTotal) : 0.0;
}

double estimateRemainingS(const std::vector<GroupWork>& groups, double secondsPerBlock)
{
    double total = 0;
    for (const GroupWork& g : groups) {
        const double budget = std::max(g.budgetLeftS, 0.0);
        const double blocks = double(std::max<int64_t>(g.blocksLeft, 0));
        total += secondsPerBlock > 0 ? std::min(budget, blocks * secondsPerBlock) : budget;
    }
    return total;
}

} // namespace synctax
