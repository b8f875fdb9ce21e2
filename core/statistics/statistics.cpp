#include "core/statistics/statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
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

double median(const std::vector<double>& values) { return quantile(values, 0.5); }

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

double trimmedMean(std::vector<double> values, double trim)
{
    if (values.empty())
        return NAN;
    std::sort(values.begin(), values.end());
    const size_t cut = std::min(size_t(double(values.size()) * std::clamp(trim, 0.0, 0.49)), (values.size() - 1) / 2);
    return std::accumulate(values.begin() + long(cut), values.end() - long(cut), 0.0) / double(values.size() - 2 * cut);
}

namespace {

double normalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Student's t quantile by the Cornish-Fisher expansion around the normal one (Abramowitz & Stegun
// 26.7.5): within 1% for 3 or more degrees of freedom, which is all it is used for.
double studentQuantile(double p, double dof)
{
    // Normal quantile by bisection on the CDF: exact enough and simple.
    double lo = -10, hi = 10;
    for (int i = 0; i < 100; ++i) {
        const double mid = (lo + hi) / 2;
        (normalCdf(mid) < p ? lo : hi) = mid;
    }
    const double z = (lo + hi) / 2, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
    return z + (z3 + z) / (4 * dof) + (5 * z5 + 16 * z3 + 3 * z) / (96 * dof * dof)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * dof * dof * dof);
}

} // namespace

double expandedTail(double level, size_t n)
{
    const double alpha = (1.0 - level) / 2.0;
    if (n < 2)
        return alpha;
    const double nn = double(n);
    const double t = studentQuantile(1.0 - alpha, nn - 1.0);
    return normalCdf(-std::sqrt(nn / (nn - 1.0)) * t);
}

Interval pairedOverheadPct(const std::vector<double>& treated, const std::vector<double>& baseline, int resamples,
    uint64_t seed, double level, double trim)
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
    result.estimate = toPct(trimmedMean(logRatios, trim));

    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<size_t> pick(0, logRatios.size() - 1);
    std::vector<double> means(size_t(std::max(resamples, 1)));
    std::vector<double> sample(logRatios.size());
    for (auto& m : means) {
        for (auto& v : sample)
            v = logRatios[pick(rng)];
        m = trimmedMean(sample, trim);
    }
    const double tail = expandedTail(level, logRatios.size());
    result.low = toPct(quantile(means, tail));
    result.high = toPct(quantile(means, 1.0 - tail));
    return result;
}

double studentT(double p, double dof)
{
    if (!(p > 0 && p < 1) || !(dof > 0))
        throw std::invalid_argument("studentT: need 0 < p < 1 and dof > 0");
    if (p < 0.5)
        return -studentT(1.0 - p, dof);
    const double logNorm = std::lgamma((dof + 1) / 2) - std::lgamma(dof / 2) - 0.5 * std::log(dof * M_PI);
    const auto density = [&](double t) { return std::exp(logNorm - (dof + 1) / 2 * std::log1p(t * t / dof)); };
    // P(0 <= T <= x) by Simpson's rule; the density is smooth, 2,000 intervals are plenty.
    const auto central = [&](double x) {
        constexpr int n = 2000;
        const double h = x / n;
        double sum = density(0) + density(x);
        for (int i = 1; i < n; ++i)
            sum += density(i * h) * (i % 2 ? 4 : 2);
        return sum * h / 3;
    };
    double lo = 0, hi = 1;
    while (central(hi) < p - 0.5 && hi < 1e6)
        hi *= 2;
    for (int i = 0; i < 60; ++i) {
        const double mid = (lo + hi) / 2;
        (central(mid) < p - 0.5 ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

Interval overheadAcrossProcessesPct(const std::vector<double>& treated, const std::vector<double>& baseline,
    const std::vector<int>& process, double level, double trim)
{
    if (treated.size() != baseline.size() || treated.size() != process.size())
        throw std::invalid_argument("overheadAcrossProcessesPct: need a treated block, a baseline block and a "
                                    "process for every pair");
    std::map<int, std::vector<double>> logRatios;
    for (size_t i = 0; i < treated.size(); ++i) {
        if (!(treated[i] > 0) || !(baseline[i] > 0))
            throw std::invalid_argument("overheadAcrossProcessesPct: block times must be positive");
        logRatios[process[i]].push_back(std::log(treated[i] / baseline[i]));
    }
    std::vector<double> estimates;
    for (const auto& [p, ratios] : logRatios) {
        if (ratios.size() >= 2)
            estimates.push_back(trimmedMean(ratios, trim));
    }
    if (estimates.size() < 2)
        throw std::invalid_argument("overheadAcrossProcessesPct: need pairs from at least 2 processes");
    const double n = double(estimates.size());
    const double m = mean(estimates);
    double ss = 0;
    for (double e : estimates)
        ss += (e - m) * (e - m);
    const double se = std::sqrt(ss / (n - 1) / n);
    const double t = studentT(1.0 - (1.0 - level) / 2, n - 1);
    const auto toPct = [](double meanLog) { return (std::exp(meanLog) - 1.0) * 100.0; };
    return { toPct(m), toPct(m - t * se), toPct(m + t * se) };
}

const char* toString(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Baseline:
        return "baseline";
    case Verdict::Significant:
        return "significant";
    case Verdict::WithinNoise:
        return "within_noise";
    }
    return "within_noise";
}

double noiseFloorPct(const Interval& aaControl)
{
    return std::max({ std::abs(aaControl.low), std::abs(aaControl.high), std::abs(aaControl.estimate) });
}

Verdict classify(const Interval& overhead, double floorPct)
{
    const bool excludesZero = overhead.low > 0 || overhead.high < 0;
    return excludesZero && std::abs(overhead.estimate) > floorPct ? Verdict::Significant : Verdict::WithinNoise;
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
