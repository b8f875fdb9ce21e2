#include "ui/charts/axisrange.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace synctax {

double robustQuantile(const float* values, size_t count, double quantile, size_t maxSamples)
{
    if (count == 0 || maxSamples == 0)
        return 0;
    const size_t stride = std::max<size_t>(1, count / maxSamples);
    std::vector<float> sample;
    sample.reserve(count / stride + 1);
    for (size_t i = 0; i < count; i += stride) {
        if (values[i] >= 0 && std::isfinite(values[i]))
            sample.push_back(values[i]);
    }
    if (sample.empty())
        return 0;
    const size_t k = std::min(sample.size() - 1, size_t(std::ceil(quantile * double(sample.size() - 1))));
    std::nth_element(sample.begin(), sample.begin() + std::ptrdiff_t(k), sample.end());
    return sample[k];
}

double robustCeiling(const float* values, size_t count, double atLeast)
{
    return std::max(atLeast, 1.2 * robustQuantile(values, count));
}

double niceTickStep(double span, int maxTicks, double smallest)
{
    if (!(span > 0) || maxTicks < 1)
        return std::max(1.0, smallest);
    const double rough = span / maxTicks;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    double step = 10 * power;
    for (double mantissa : { 1.0, 2.0, 5.0 }) {
        if (mantissa * power >= rough) {
            step = mantissa * power;
            break;
        }
    }
    return std::max(step, smallest);
}

} // namespace synctax
