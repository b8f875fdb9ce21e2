#pragma once

#include <cstdint>
#include <vector>

namespace synctax {

struct Interval {
    double estimate = 0;
    double low = 0;
    double high = 0;
};

double mean(const std::vector<double>& values);
double quantile(std::vector<double> values, double q); // linear interpolation between order statistics
double median(const std::vector<double>& values);
double geometricMean(const std::vector<double>& values); // all values must be > 0

// Overhead in percent of `treated` over `baseline`, paired by index (block of round i against the
// baseline block of round i): geometric mean of the ratios, with a percentile bootstrap interval
// over the pairs (Kalibera & Jones). Deterministic for a seed.
Interval pairedOverheadPct(const std::vector<double>& treated, const std::vector<double>& baseline,
    int resamples = 2000, uint64_t seed = 1, double level = 0.95);

// What most people do: best treated time against best baseline time, in percent.
double naiveBestOfPct(const std::vector<double>& treated, const std::vector<double>& baseline);

} // namespace synctax
