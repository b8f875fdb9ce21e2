#include "core/queuemodel/stylestep.h"

#include <algorithm>

namespace synctax {

StyleWork styleWork(const StyleSpec& style, const ReplayCosts& costs)
{
    StyleWork w;
    w.info = findStyle(style.name);
    w.n = style.n;
    w.cost = styleHostCost(style, costs);
    w.extraLaunches = w.info ? w.info->cost.extraLaunches : 0;
    w.extraLaunchUs = costs.extraLaunchUs;
    w.afterSyncUs = costs.afterSyncUs;
    return w;
}

void replayStyleWork(ReplayState& s, const StyleWork& work, std::int64_t step, std::int64_t steps, std::size_t capacity)
{
    if (work.info && syncsAfterStep(*work.info, work.n, step, steps)) {
        // The style's launches queue behind the step's work; its read waits for all of it.
        for (int i = 0; i < work.extraLaunches; ++i)
            replayLaunch(s, 0, work.extraLaunchUs, capacity);
        replaySync(s, work.cost.readUs);
        // The host's slowdown after a wait lands on the next step's dispatch: on the serial host
        // timeline, charging it here moves every later launch the same.
        if (step + 1 < steps)
            s.host += work.afterSyncUs;
    } else {
        s.host += work.cost.stepUs;
        for (int i = 0; i < work.extraLaunches; ++i)
            replayLaunch(s, 0, work.extraLaunchUs, capacity);
    }
}

std::int64_t steadySteps(const StyleSpec& style)
{
    const StyleInfo* info = findStyle(style.name);
    const std::int64_t period = info && info->takesN() ? std::max<std::int64_t>(1, style.n) : 1;
    return period * ((20 + period - 1) / period);
}

double steadyPerStep(std::int64_t n, double shortPerStep, double longPerStep)
{
    return (longPerStep * double(2 * n) - shortPerStep * double(n)) / double(n);
}

} // namespace synctax
