#pragma once

#include <cstddef>
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

// Mean of the values left after dropping the `trim` fraction at each end (0: the plain mean).
double trimmedMean(std::vector<double> values, double trim);

// The tail probability at which to read a percentile bootstrap of n values so that the interval
// keeps its level for small n (Hesterberg's expanded percentile interval): plain percentile
// intervals are too narrow by about sqrt((n-1)/n) * t/z.
double expandedTail(double level, size_t n);

// Overhead in percent of `treated` over `baseline`, paired by index (block of round i against the
// baseline block of round i): the trimmed geometric mean of the ratios (10% off each end by
// default, so that one block hit by a host hiccup cannot move the estimate), with an expanded
// percentile bootstrap interval over the pairs (Kalibera & Jones; Hesterberg). Deterministic for a seed.
Interval pairedOverheadPct(const std::vector<double>& treated, const std::vector<double>& baseline,
    int resamples = 2000, uint64_t seed = 1, double level = 0.95, double trim = 0.1);

// Student's t quantile: P(T <= t) = p for `dof` degrees of freedom (by bisection on the
// numerically integrated density; accurate to about 1e-6 for 1 to 10,000 degrees of freedom).
double studentT(double p, double dof);

// Overhead in percent for a run spread over several processes. Within each process, the trimmed
// geometric mean of its paired ratios (as pairedOverheadPct); across processes, their mean, with a
// Student-t interval over the per-process estimates (N - 1 degrees of freedom). The interval then
// holds what differs from one process to the next (where threads land, the host's speed), which
// no resampling of one process's rounds can see. `process[i]` names the process of pair i;
// processes with fewer than 2 pairs are left out. Needs pairs from at least 2 processes.
Interval overheadAcrossProcessesPct(const std::vector<double>& treated, const std::vector<double>& baseline,
    const std::vector<int>& process, double level = 0.95, double trim = 0.1);

enum class Verdict { Baseline, Significant, WithinNoise };
const char* toString(Verdict verdict);

// The A/A control's interval bounds the effect that noise alone produces: the floor is its
// largest distance from zero.
double noiseFloorPct(const Interval& aaControl);

// Significant: the interval excludes zero and the estimate clears the noise floor.
Verdict classify(const Interval& overhead, double noiseFloorPct);

// What most people do: best treated time against best baseline time, in percent.
double naiveBestOfPct(const std::vector<double>& treated, const std::vector<double>& baseline);

} // namespace synctax
