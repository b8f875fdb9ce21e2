#include "core/statistics/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

using namespace synctax;

TEST(Statistics, QuantilesInterpolateBetweenOrderStatistics)
{
    const std::vector<double> v { 4, 1, 3, 2, 5 };
    EXPECT_DOUBLE_EQ(median(v), 3);
    EXPECT_DOUBLE_EQ(quantile(v, 0.0), 1);
    EXPECT_DOUBLE_EQ(quantile(v, 1.0), 5);
    EXPECT_DOUBLE_EQ(quantile(v, 0.125), 1.5);
    EXPECT_DOUBLE_EQ(median({ 1, 2, 3, 4 }), 2.5);
    EXPECT_TRUE(std::isnan(median({})));
}

TEST(Statistics, TrimmedMeanDropsTheTails)
{
    EXPECT_DOUBLE_EQ(trimmedMean({ 1, 2, 3, 4, 100 }, 0.2), 3);
    EXPECT_DOUBLE_EQ(trimmedMean({ 1, 2, 3, 4, 100 }, 0.0), 22);
    EXPECT_DOUBLE_EQ(trimmedMean({ 5 }, 0.4), 5);
    EXPECT_DOUBLE_EQ(trimmedMean({ 1, 3 }, 0.4), 2);
}

TEST(Statistics, VerdictNeedsAnIntervalClearOfZeroAndOfTheNoiseFloor)
{
    EXPECT_DOUBLE_EQ(noiseFloorPct({ 0.1, -0.4, 0.3 }), 0.4);
    EXPECT_EQ(classify({ 2.0, 1.0, 3.0 }, 0.4), Verdict::Significant);
    EXPECT_EQ(classify({ -2.0, -3.0, -1.0 }, 0.4), Verdict::Significant);
    EXPECT_EQ(classify({ 2.0, -0.1, 3.0 }, 0.4), Verdict::WithinNoise); // includes zero
    EXPECT_EQ(classify({ 0.3, 0.1, 0.5 }, 0.4), Verdict::WithinNoise); // under the floor
    EXPECT_STREQ(toString(Verdict::WithinNoise), "within_noise");
}

TEST(Statistics, PureNoiseIsRarelyCalledSignificant)
{
    // A style with no effect, judged against an A/A control from the same noise: the verdict
    // must be within_noise nearly always (the floor makes it stricter than the bare interval).
    int falsePositives = 0;
    const int trials = 200;
    for (int t = 0; t < trials; ++t) {
        std::mt19937_64 rng(5000 + t);
        std::lognormal_distribution<double> noise(0.0, 0.03);
        std::vector<double> base, aa, style;
        for (int r = 0; r < 30; ++r) {
            base.push_back(noise(rng));
            aa.push_back(noise(rng));
            style.push_back(noise(rng));
        }
        const double floor = noiseFloorPct(pairedOverheadPct(aa, base, 2000, uint64_t(t)));
        if (classify(pairedOverheadPct(style, base, 2000, uint64_t(t)), floor) == Verdict::Significant)
            ++falsePositives;
    }
    EXPECT_LE(falsePositives, int(0.05 * trials)) << falsePositives << " of " << trials;
}

TEST(Statistics, AKnownEffectWellAboveTheNoiseIsFound)
{
    int found = 0;
    const int trials = 100;
    for (int t = 0; t < trials; ++t) {
        std::mt19937_64 rng(9000 + t);
        std::lognormal_distribution<double> noise(0.0, 0.02);
        std::vector<double> base, aa, style;
        for (int r = 0; r < 30; ++r) {
            const double b = noise(rng);
            base.push_back(b);
            aa.push_back(b * noise(rng));
            style.push_back(b * 1.05 * noise(rng));
        }
        const double floor = noiseFloorPct(pairedOverheadPct(aa, base, 2000, uint64_t(t)));
        if (classify(pairedOverheadPct(style, base, 2000, uint64_t(t)), floor) == Verdict::Significant)
            ++found;
    }
    EXPECT_GE(found, int(0.95 * trials));
}

TEST(Statistics, GeometricMeanOfRatios)
{
    EXPECT_NEAR(geometricMean({ 2, 8 }), 4, 1e-12);
    EXPECT_THROW(geometricMean({ 1, 0 }), std::invalid_argument);
}

TEST(Statistics, PairedOverheadOfAnExactRatioIsExact)
{
    const std::vector<double> base { 1.0, 2.0, 3.0, 4.0 };
    const std::vector<double> treated { 1.1, 2.2, 3.3, 4.4 };
    const Interval i = pairedOverheadPct(treated, base);
    EXPECT_NEAR(i.estimate, 10.0, 1e-9);
    EXPECT_NEAR(i.low, 10.0, 1e-9);
    EXPECT_NEAR(i.high, 10.0, 1e-9);
}

TEST(Statistics, PairingCancelsDriftInTheInterval)
{
    // Every round both configurations slow down together; the true ratio is 1.05 throughout.
    std::vector<double> base, treated;
    for (int r = 0; r < 40; ++r) {
        const double drift = 1.0 + 0.02 * r;
        base.push_back(drift);
        treated.push_back(drift * 1.05);
    }
    const Interval paired = pairedOverheadPct(treated, base);
    EXPECT_NEAR(paired.estimate, 5.0, 1e-9);
    EXPECT_NEAR(paired.high - paired.low, 0.0, 1e-9);
    EXPECT_NEAR(naiveBestOfPct(treated, base), 5.0, 1e-9);
    // Pair each block with a baseline block of another round: the drift now widens the interval.
    std::reverse(treated.begin(), treated.end());
    const Interval unpaired = pairedOverheadPct(treated, base);
    EXPECT_GT(unpaired.high - unpaired.low, 10.0);
}

TEST(Statistics, BootstrapIntervalCoversTheTruthAtAboutTheNominalRate)
{
    const double truth = 3.0; // percent
    int covered = 0;
    const int trials = 200;
    for (int t = 0; t < trials; ++t) {
        std::mt19937_64 rng(1000 + t);
        std::lognormal_distribution<double> noise(0.0, 0.03);
        std::vector<double> base, treated;
        for (int r = 0; r < 40; ++r) {
            const double b = 1.0 * noise(rng);
            base.push_back(b);
            treated.push_back(b * (1.0 + truth / 100.0) * noise(rng));
        }
        const Interval i = pairedOverheadPct(treated, base, 2000, uint64_t(t));
        EXPECT_LE(i.low, i.estimate);
        EXPECT_GE(i.high, i.estimate);
        if (i.low <= truth && truth <= i.high)
            ++covered;
    }
    // A percentile bootstrap on 40 pairs runs slightly under 95%; far off means a broken interval.
    EXPECT_GE(covered, int(0.88 * trials));
    EXPECT_LE(covered, int(0.99 * trials));
}

TEST(Statistics, ExpandedTailWidensSmallSamplesOnly)
{
    EXPECT_NEAR(expandedTail(0.95, 1000), 0.025, 0.001);
    EXPECT_LT(expandedTail(0.95, 10), 0.015); // t(9) = 2.26 and sqrt(10/9): the 0.93% quantile
    EXPECT_GT(expandedTail(0.95, 10), 0.005);
    EXPECT_LT(expandedTail(0.95, 4), expandedTail(0.95, 10));
}

TEST(Statistics, SmallSamplesStillCoverAtAboutTheNominalRate)
{
    int covered = 0;
    const int trials = 300;
    for (int t = 0; t < trials; ++t) {
        std::mt19937_64 rng(20000 + t);
        std::normal_distribution<double> noise(0.0, 0.03);
        std::vector<double> base, treated;
        for (int r = 0; r < 8; ++r) {
            base.push_back(1.0);
            treated.push_back(1.02 * std::exp(noise(rng)));
        }
        const Interval i = pairedOverheadPct(treated, base, 2000, uint64_t(t));
        if (i.low <= 2.0 && 2.0 <= i.high)
            ++covered;
    }
    EXPECT_GE(covered, int(0.88 * trials)) << covered << " of " << trials;
}

TEST(Statistics, BootstrapIsDeterministicForASeed)
{
    const std::vector<double> base { 1.0, 1.1, 0.9, 1.05, 0.98 };
    const std::vector<double> treated { 1.02, 1.15, 0.93, 1.04, 1.01 };
    const Interval a = pairedOverheadPct(treated, base, 2000, 7);
    const Interval b = pairedOverheadPct(treated, base, 2000, 7);
    EXPECT_EQ(a.low, b.low);
    EXPECT_EQ(a.high, b.high);
}

TEST(Statistics, PairedOverheadRejectsMismatchedInput)
{
    EXPECT_THROW(pairedOverheadPct({ 1.0 }, { 1.0, 2.0 }), std::invalid_argument);
    EXPECT_THROW(pairedOverheadPct({}, {}), std::invalid_argument);
    EXPECT_THROW(pairedOverheadPct({ -1.0 }, { 1.0 }), std::invalid_argument);
}

TEST(Statistics, NaiveBestOfComparesMinima) { EXPECT_NEAR(naiveBestOfPct({ 3, 1.2, 2 }, { 1.0, 5 }), 20.0, 1e-9); }

TEST(Statistics, StudentQuantilesMatchTheTables)
{
    EXPECT_NEAR(studentT(0.975, 1), 12.706, 0.002);
    EXPECT_NEAR(studentT(0.975, 2), 4.303, 0.001);
    EXPECT_NEAR(studentT(0.975, 4), 2.776, 0.001);
    EXPECT_NEAR(studentT(0.975, 30), 2.042, 0.001);
    EXPECT_NEAR(studentT(0.95, 9), 1.833, 0.001);
    EXPECT_NEAR(studentT(0.025, 4), -2.776, 0.001);
    EXPECT_THROW(studentT(1.0, 4), std::invalid_argument);
}

namespace {

// Pairs of a run spread over `processes`, each process with its own offset (how fast its loop ran)
// on top of block noise: log(treated / baseline) = log(1 + truth) + offset + noise.
struct ProcessPairs {
    std::vector<double> treated, baseline;
    std::vector<int> process;
};

ProcessPairs pairsWithProcessEffects(
    std::mt19937_64& rng, double truth, int processes, int pairsEach, double processSd, double blockSd)
{
    std::normal_distribution<double> offset(0.0, processSd), noise(0.0, blockSd);
    ProcessPairs p;
    for (int k = 0; k < processes; ++k) {
        const double o = offset(rng);
        for (int i = 0; i < pairsEach; ++i) {
            const double base = 10.0 * std::exp(noise(rng));
            p.baseline.push_back(base);
            p.treated.push_back(base * (1.0 + truth) * std::exp(o + noise(rng)));
            p.process.push_back(k);
        }
    }
    return p;
}

} // namespace

// When processes differ (their offsets), an interval over one run's pooled rounds is too narrow to
// hold the truth; the interval across processes holds it at about the nominal rate.
TEST(Statistics, AcrossProcessesCoversWhatPoolingTheRoundsMisses)
{
    std::mt19937_64 rng(11);
    const double truth = 0.05;
    int acrossHits = 0, pooledHits = 0;
    const int runs = 300;
    for (int run = 0; run < runs; ++run) {
        const ProcessPairs p = pairsWithProcessEffects(rng, truth, 5, 20, 0.03, 0.05);
        const Interval across = overheadAcrossProcessesPct(p.treated, p.baseline, p.process);
        const Interval pooled = pairedOverheadPct(p.treated, p.baseline, 400, uint64_t(run) + 1);
        acrossHits += across.low <= truth * 100 && truth * 100 <= across.high;
        pooledHits += pooled.low <= truth * 100 && truth * 100 <= pooled.high;
    }
    const double across = double(acrossHits) / runs, pooled = double(pooledHits) / runs;
    EXPECT_GT(across, 0.9) << "across processes: " << across;
    EXPECT_LT(across, 0.99) << "across processes: " << across;
    EXPECT_LT(pooled, 0.8) << "pooled rounds: " << pooled;
    std::cout << "coverage over " << runs << " runs: across processes " << across << ", pooled rounds " << pooled
              << "\n";
}

// Without process effects both are honest, and the across-process interval is not absurdly wider.
TEST(Statistics, AcrossProcessesWithoutProcessEffectsStillCovers)
{
    std::mt19937_64 rng(12);
    int hits = 0;
    double widthSum = 0;
    const int runs = 300;
    for (int run = 0; run < runs; ++run) {
        const ProcessPairs p = pairsWithProcessEffects(rng, 0.03, 5, 20, 0.0, 0.05);
        const Interval i = overheadAcrossProcessesPct(p.treated, p.baseline, p.process);
        hits += i.low <= 3.0 && 3.0 <= i.high;
        widthSum += i.high - i.low;
    }
    EXPECT_GT(double(hits) / runs, 0.91);
    // 100 pairs of sd 0.05: a pooled 95% interval is about 2 x 1.96 x 0.5% = 2 points wide; with 4
    // degrees of freedom across processes, t = 2.78 and the spread's own noise widen it.
    EXPECT_LT(widthSum / runs, 4.0);
}

TEST(Statistics, AcrossProcessesNeedsTwoProcessesWithPairs)
{
    EXPECT_THROW(overheadAcrossProcessesPct({ 1, 1, 1 }, { 1, 1, 1 }, { 0, 0, 1 }), std::invalid_argument);
    EXPECT_THROW(overheadAcrossProcessesPct({ 1, 1 }, { 1, 1 }, { 0 }), std::invalid_argument);
    const Interval exact = overheadAcrossProcessesPct({ 2.2, 2.2, 2.2, 2.2 }, { 2, 2, 2, 2 }, { 0, 0, 1, 1 });
    EXPECT_NEAR(exact.estimate, 10.0, 1e-9);
    EXPECT_NEAR(exact.low, 10.0, 1e-9);
    EXPECT_NEAR(exact.high, 10.0, 1e-9);
}
