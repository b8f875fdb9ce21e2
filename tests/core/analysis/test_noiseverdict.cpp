#include "core/analysis/groupanalysis.h"
#include "core/analysis/noiseverdict.h"

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

TEST(NoiseVerdict, QuietGroupIsTrusted)
{
    const Synthetic s = analysed(0.005, 0.0);
    EXPECT_LT(s.group.noiseFloorPct, tooNoisyFloorPct);
    EXPECT_EQ(s.group.noiseVerdict, NoiseVerdict::Trusted);
    EXPECT_FALSE(tooNoisy(s.group.noiseVerdict));
    EXPECT_TRUE(noiseReasons(s.group).empty());
    EXPECT_EQ(s.item.verdict, Verdict::Significant);
}

TEST(NoiseVerdict, AControlThatExcludesZeroIsTooNoisy)
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

TEST(NoiseVerdict, AFloorAboveTheLimitIsTooNoisy)
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

TEST(NoiseVerdict, JudgedFromTheControlsInterval)
{
    // The reported A/A control of the 3-round CPU run: it excludes zero, and its floor is 21.1%.
    EXPECT_EQ(judgeNoise(Interval { 9.8, 1.3, 21.1 }), NoiseVerdict::ControlNotWithinNoise);
    EXPECT_EQ(judgeNoise(Interval { -9.8, -21.1, -1.3 }), NoiseVerdict::ControlNotWithinNoise);
    EXPECT_EQ(judgeNoise(Interval { 0.5, -19.0, 35.0 }), NoiseVerdict::FloorTooHigh);
    EXPECT_EQ(judgeNoise(Interval { 0.2, -1.2, 1.4 }), NoiseVerdict::Trusted);
    EXPECT_EQ(judgeNoise(Interval { 0.0, -5.0, 5.0 }), NoiseVerdict::Trusted); // at the limit: not above it
    EXPECT_EQ(judgeNoise(Interval { 0.0, -5.01, 4.0 }), NoiseVerdict::FloorTooHigh);
    EXPECT_EQ(judgeNoise(std::nullopt), NoiseVerdict::NoControl);
    EXPECT_FALSE(tooNoisy(NoiseVerdict::NoControl));
}

TEST(NoiseVerdict, BothReasonsAreNamedWhenBothHold)
{
    GroupResult g;
    g.noiseFloorPct = 21.1;
    g.noiseVerdict = judgeNoise(Interval { 9.8, 1.3, 21.1 });
    EXPECT_EQ(noiseReasons(g),
        (std::vector<std::string> { "the A/A control's interval excludes 0", "noise floor 21.1% is above 5%" }));
}

TEST(NoiseVerdict, JudgedFromTheCellsOfItsGroup)
{
    GroupResult g;
    g.model = "tiny_mlp";
    g.mode = "eager";
    CellResult aa = cell("aa_control", {});
    aa.overheadPct = Interval { 9.8, 1.3, 21.1 };
    CellResult otherModel = aa;
    otherModel.model = "resnet50";
    otherModel.overheadPct = Interval { 0.1, -0.5, 0.6 };
    EXPECT_EQ(judgeNoise(g, { otherModel, aa }), NoiseVerdict::ControlNotWithinNoise);
    EXPECT_EQ(judgeNoise(g, { otherModel }), NoiseVerdict::NoControl);
    aa.overheadPct = Interval { 0.1, -0.5, 0.6 };
    EXPECT_EQ(judgeNoise(g, { aa }), NoiseVerdict::Trusted);
}

TEST(NoiseVerdict, NamesRoundTrip)
{
    for (NoiseVerdict v : { NoiseVerdict::Trusted, NoiseVerdict::NoControl, NoiseVerdict::ControlNotWithinNoise,
             NoiseVerdict::FloorTooHigh })
        EXPECT_EQ(noiseVerdictFromString(toString(v)), v);
    EXPECT_FALSE(noiseVerdictFromString("noisy"));
}
