#include "core/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace synctax {

double mean(const std::vector<double>& values)
{
    if (values.empty())
        return NAN;
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

double quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return NAN;
    std::sort(values.begin(), values.end());
    const double pos = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(lo + 1, values.size() - 1);
    const double frac = pos - double(lo);
    return values[lo] + (values[hi] - values[lo]) * frac;
}

double median(const std::vector<double>& values)
{
    return quantile(values, 0.5);
}

double geometricMean(const std::vector<double>& values)
{
    if (values.empty())
        return NAN;
    double logSum = 0;
    for (double v : values) {
        if (!(v > 0))
            throw std::invalid_argument("geometricMean: values must be positive");
        logSum += std::log(v);
    }
    return std::exp(logSum / double(values.size()));
}

Interval pairedOverheadPct(const std::vector<double>& treated, const std::vector<double>& baseline, int resamples,
    uint64_t seed, double level)
{
    if (treated.size() != baseline.size() || treated.empty())
        throw std::invalid_argument("pairedOverheadPct: need the same, non-zero number of treated and baseline blocks");
    std::vector<double> logRatios(treated.size());
    for (size_t i = 0; i < treated.size(); ++i) {
        if (!(treated[i] > 0) || !(baseline[i] > 0))
            throw std::invalid_argument("pairedOverheadPct: block times must be positive");
        logRatios[i] = std::log(treated[i] / baseline[i]);
    }
    const auto toPct = [](double meanLog) { return (std::exp(meanLog) - 1.0) * 100.0; };
    Interval result;
    result.estimate = toPct(mean(logRatios));

    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<size_t> pick(0, logRatios.size() - 1);
    std::vector<double> means(size_t(std::max(resamples, 1)));
    for (auto& m : means) {
        double sum = 0;
        for (size_t i = 0; i < logRatios.size(); ++i)
            sum += logRatios[pick(rng)];
        m = sum / double(logRatios.size());
    }
    const double tail = (1.0 - level) / 2.0;
    result.low = toPct(quantile(means, tail));
    result.high = toPct(quantile(means, 1.0 - tail));
    return result;
}

double naiveBestOfPct(const std::vector<double>& treated, const std::vector<double>& baseline)
{
    if (treated.empty() || baseline.empty())
        return NAN;
    const double bestTreated = *std::min_element(treated.begin(), treated.end());
    const double bestBaseline = *std::min_element(baseline.begin(), baseline.end());
    return (bestTreated / bestBaseline - 1.0) * 100.0;
}

} // namespace synctax
