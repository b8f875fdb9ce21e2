#include "core/analysis/experimentresult.h"
#include "core/analysis/noiseverdict.h"

#include <gtest/gtest.h>

using namespace synctax;

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
    CellResult aa;
    aa.model = "tiny_mlp";
    aa.mode = "eager";
    aa.style = "aa_control";
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
