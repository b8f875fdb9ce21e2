#include "core/analysis/groupanalysis.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using namespace synctax;

namespace {

CellResult cell(const std::string& style, std::vector<double> blocks)
{
    CellResult c;
    c.model = "tiny_mlp";
    c.mode = "eager";
    c.style = style;
    for (size_t i = 0; i < blocks.size(); ++i)
        c.blockRounds.push_back(int(i));
    c.blockStepMs = std::move(blocks);
    return c;
}

// A group of 40 rounds: the baseline, its A/A control `aaOffset` slower, both with log-normal
// block noise of `sd`, and one style 10% slower.
struct Synthetic {
    CellResult base, aa, item;
    GroupResult group;
};

Synthetic analysed(double sd, double aaOffset)
{
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> noise(0.0, sd);
    std::vector<double> base, aa, item;
    for (int r = 0; r < 40; ++r) {
        base.push_back(noise(rng));
        aa.push_back((1.0 + aaOffset) * noise(rng));
        item.push_back(1.10 * noise(rng));
    }
    Synthetic s { cell("none", base), cell("aa_control", aa), cell("item", item), {} };
    s.group.model = "tiny_mlp";
    s.group.mode = "eager";
    analyseGroup({ &s.base, &s.aa, &s.item }, s.group, 1);
    return s;
}

} // namespace

TEST(GroupAnalysis, PairsBlocksByRound)
{
    CellResult base = cell("none", { 1, 2, 3 });
    CellResult other = cell("item", { 10, 30 });
    other.blockRounds = { 0, 2 };
    const PairedBlocks p = pairByRound(other, base);
    EXPECT_EQ(p.treated, (std::vector<double> { 10, 30 }));
    EXPECT_EQ(p.baseline, (std::vector<double> { 1, 3 }));
}

TEST(GroupAnalysis, VerdictsFloorAndDrift)
{
    std::mt19937_64 rng(3);
    std::lognormal_distribution<double> noise(0.0, 0.005);
    std::vector<double> base, aa, slow, same;
    for (int r = 0; r < 30; ++r) {
        const double b = 1.0 + 0.01 * r; // the machine slows down by 30% over the run
        base.push_back(b);
        aa.push_back(b * noise(rng));
        slow.push_back(b * 1.10 * noise(rng));
        same.push_back(b * noise(rng));
    }
    CellResult cBase = cell("none", base), cAa = cell("aa_control", aa), cSlow = cell("item", slow),
               cSame = cell("progress_bar", same), cFailed = cell("print_every_step", {});
    cFailed.ok = false;
    std::vector<CellResult*> cells { &cBase, &cAa, &cSlow, &cSame, &cFailed };
    GroupResult group;
    analyseGroup(cells, group, 1);

    EXPECT_EQ(cBase.verdict, Verdict::Baseline);
    EXPECT_FALSE(cBase.overheadPct);
    EXPECT_EQ(cAa.verdict, Verdict::WithinNoise);
    EXPECT_EQ(cSlow.verdict, Verdict::Significant);
    EXPECT_NEAR(cSlow.overheadPct->estimate, 10.0, 0.5);
    EXPECT_EQ(cSlow.pairedRounds, 30);
    EXPECT_EQ(cSame.verdict, Verdict::WithinNoise);
    EXPECT_FALSE(cFailed.verdict);
    EXPECT_GT(group.noiseFloorPct, 0.0);
    EXPECT_LT(group.noiseFloorPct, 1.0);
    ASSERT_TRUE(group.drift);
    EXPECT_NEAR(group.drift->pct, 15.0, 1.0); // second half against first half
    EXPECT_TRUE(group.drift->flagged);
}

TEST(GroupAnalysis, NoDriftFlagOnAStableBaseline)
{
    std::vector<double> base(20, 1.0), aa;
    for (int r = 0; r < 20; ++r)
        aa.push_back(r % 2 ? 1.01 : 0.99);
    CellResult cBase = cell("none", base), cAa = cell("aa_control", aa);
    std::vector<CellResult*> cells { &cBase, &cAa };
    GroupResult group;
    analyseGroup(cells, group, 1);
    ASSERT_TRUE(group.drift);
    EXPECT_NEAR(group.drift->pct, 0.0, 1e-9);
    EXPECT_FALSE(group.drift->flagged);
}

TEST(GroupAnalysis, WidestHalfWidthWaitsForTwoRounds)
{
    CellResult cBase = cell("none", { 1.0 }), cItem = cell("item", { 1.1 });
    std::vector<CellResult*> cells { &cBase, &cItem };
    EXPECT_TRUE(std::isinf(widestHalfWidthPct(cells, 1)));
    cBase = cell("none", { 1.0, 1.0, 1.0 });
    cItem = cell("item", { 1.1, 1.1, 1.1 });
    EXPECT_NEAR(widestHalfWidthPct(cells, 1), 0.0, 1e-9);
}

TEST(GroupAnalysis, NoiseVerdictQuietGroupIsTrusted)
{
    const Synthetic s = analysed(0.005, 0.0);
    EXPECT_LT(s.group.noiseFloorPct, tooNoisyFloorPct);
    EXPECT_EQ(s.group.noiseVerdict, NoiseVerdict::Trusted);
    EXPECT_FALSE(tooNoisy(s.group.noiseVerdict));
    EXPECT_TRUE(noiseReasons(s.group).empty());
    EXPECT_EQ(s.item.verdict, Verdict::Significant);
}

TEST(GroupAnalysis, NoiseVerdictAControlThatExcludesZeroIsTooNoisy)
{
    // Block noise of 0.5% and an A/A control 3% off: a narrow interval that misses zero.
    const Synthetic s = analysed(0.005, 0.03);
    ASSERT_TRUE(s.aa.overheadPct);
    EXPECT_GT(s.aa.overheadPct->low, 0.0);
    EXPECT_LT(s.group.noiseFloorPct, tooNoisyFloorPct);
    EXPECT_EQ(s.group.noiseVerdict, NoiseVerdict::ControlNotWithinNoise);
    EXPECT_TRUE(tooNoisy(s.group.noiseVerdict));
    EXPECT_EQ(noiseReasons(s.group), std::vector<std::string> { "the A/A control's interval excludes 0" });
}

TEST(GroupAnalysis, NoiseVerdictAFloorAboveTheLimitIsTooNoisy)
{
    // Block noise of 20%, as on a loaded 2-core CPU: the A/A interval holds zero but is wide.
    const Synthetic s = analysed(0.20, 0.0);
    ASSERT_TRUE(s.aa.overheadPct);
    EXPECT_LT(s.aa.overheadPct->low, 0.0);
    EXPECT_GT(s.aa.overheadPct->high, 0.0);
    EXPECT_GT(s.group.noiseFloorPct, tooNoisyFloorPct);
    EXPECT_EQ(s.group.noiseVerdict, NoiseVerdict::FloorTooHigh);
    EXPECT_TRUE(tooNoisy(s.group.noiseVerdict));
    char expected[64];
    std::snprintf(expected, sizeof expected, "noise floor %.1f%% is above 5%%", s.group.noiseFloorPct);
    EXPECT_EQ(noiseReasons(s.group), std::vector<std::string> { expected });
}
