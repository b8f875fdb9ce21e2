#include "core/queuemodel/regime.h"

namespace synctax {

std::string classifyRegime(double dMs, double gMs, double hUs)
{
    const double host = dMs + hUs * 1e-3;
    if (gMs >= 1.25 * host)
        return "gpu_bound";
    if (host >= 1.25 * gMs)
        return "dispatch_bound";
    return "balanced";
}

} // namespace synctax
