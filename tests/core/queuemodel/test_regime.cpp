#include "core/queuemodel/regime.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(Regime, LabelsFollowTheDocumentedRule)
{
    EXPECT_EQ(classifyRegime(1.0, 0.2, 0), "dispatch_bound");
    EXPECT_EQ(classifyRegime(1.0, 30.0, 0), "gpu_bound");
    EXPECT_EQ(classifyRegime(1.0, 1.1, 0), "balanced");
    EXPECT_EQ(classifyRegime(1.0, 4.0, 3000), "balanced"); // host work counts with dispatch
    // The band's edges: within a factor of two either way is balanced.
    EXPECT_EQ(classifyRegime(1.0, 2.0, 0), "gpu_bound");
    EXPECT_EQ(classifyRegime(1.0, 1.99, 0), "balanced");
    EXPECT_EQ(classifyRegime(2.0, 1.0, 0), "dispatch_bound");
    EXPECT_EQ(classifyRegime(1.99, 1.0, 0), "balanced");
    EXPECT_EQ(classifyRegime(0.5, 1.0, 500), "balanced");
}

TEST(Regime, TheModelsPaceTestsAreAQuarterApartFromTheLabel)
{
    EXPECT_TRUE(gpuSetsThePace(1.0, 1.25, 0));
    EXPECT_FALSE(gpuSetsThePace(1.0, 1.24, 0));
    EXPECT_TRUE(hostSetsThePace(1.25, 1.0, 0));
    EXPECT_FALSE(hostSetsThePace(1.24, 1.0, 0));
    EXPECT_TRUE(hostSetsThePace(1.0, 1.0, 250)); // host work counts with dispatch
    // A host at 1.5 times its GPU sets the pace, while the label calls the two balanced.
    EXPECT_TRUE(hostSetsThePace(1.5, 1.0, 0));
    EXPECT_EQ(classifyRegime(1.5, 1.0, 0), "balanced");
}
