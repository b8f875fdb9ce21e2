#include "core/queuemodel/regime.h"

namespace synctax {

namespace {

constexpr double paceMargin = 1.25;

} // namespace

std::string classifyRegime(double dMs, double gMs, double hUs)
{
    const double host = dMs + hUs * 1e-3;
    if (gMs >= balancedBand * host)
        return "gpu_bound";
    if (host >= balancedBand * gMs)
        return "dispatch_bound";
    return "balanced";
}

bool gpuSetsThePace(double dMs, double gMs, double hUs) { return gMs >= paceMargin * (dMs + hUs * 1e-3); }

bool hostSetsThePace(double dMs, double gMs, double hUs) { return dMs + hUs * 1e-3 >= paceMargin * gMs; }

} // namespace synctax
