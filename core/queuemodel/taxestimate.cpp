#include "core/queuemodel/taxestimate.h"

#include "core/config/stylecatalog.h"

#include <algorithm>

namespace synctax {

StyleSpec syncEveryNStyle(int64_t n)
{
    if (n <= 0)
        return { baselineStyle(), 0 };
    if (n == 1)
        return { "item", 0 };
    return { "item_every_n", n };
}

SyncTaxEstimate estimateSyncTax(const QueueModel& model, int64_t n, int64_t minSteps)
{
    SyncTaxEstimate estimate;
    const StyleSpec style = syncEveryNStyle(n);
    const int64_t period = std::max<int64_t>(1, n);
    const int64_t shortSteps = period * std::max<int64_t>(1, (std::max<int64_t>(1, minSteps) + period - 1) / period);
    const int64_t longSteps = 2 * shortSteps;
    const std::vector<StyleSpec> styles { { baselineStyle(), 0 }, style };

    const std::vector<StyleSimulation> shortRun = simulateStyles(model, styles, shortSteps, 1);
    std::vector<StepRecord> records;
    const std::vector<StyleSimulation> longRun = simulateStyles(model, styles, longSteps, 1, &records);
    const auto perStep = [&](size_t i) {
        const double extraMs = longRun[i].msPerStep * double(longSteps) - shortRun[i].msPerStep * double(shortSteps);
        return extraMs / double(longSteps - shortSteps);
    };
    estimate.msPerStepWithout = perStep(0);
    estimate.msPerStepWith = n > 0 ? perStep(1) : estimate.msPerStepWithout;
    if (estimate.msPerStepWithout > 0)
        estimate.taxPct = (estimate.msPerStepWith / estimate.msPerStepWithout - 1.0) * 100.0;

    double waitNs = 0;
    int64_t syncs = 0;
    for (const StepRecord& r : records) {
        if (r.cell != 1 || n <= 0 || !syncsAfterStep(style, r.step, longSteps))
            continue;
        waitNs += double(r.loggedNs - r.dispatchedNs);
        ++syncs;
    }
    estimate.waitMsPerSync = syncs > 0 ? waitNs * 1e-6 / double(syncs) : 0;
    return estimate;
}

} // namespace synctax
