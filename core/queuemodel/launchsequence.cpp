#include "core/queuemodel/launchsequence.h"

#include <algorithm>

namespace synctax {

StepSequence uniformSequence(double dMs, double gMs, std::int64_t k, double tailMs)
{
    StepSequence seq;
    seq.stepHostUs = std::max(0.0, dMs) * 1e3;
    if (k <= 0)
        return seq;
    const double tailUs = k > 1 ? std::clamp(tailMs, 0.0, std::max(0.0, gMs)) * 1e3 : 0.0;
    const double eachGpuUs = (std::max(0.0, gMs) * 1e3 - tailUs) / double(k > 1 && tailUs > 0 ? k - 1 : k);
    const double eachHostUs = seq.stepHostUs / double(k);
    for (std::int64_t i = 0; i < k; ++i) {
        const bool tail = tailUs > 0 && i + 1 == k;
        seq.ops.push_back({ double(i) * eachHostUs, eachHostUs, tail ? tailUs : eachGpuUs, 0 });
    }
    return seq;
}

} // namespace synctax
