#include "core/queuemodel/regime.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(Regime, LabelsFollowTheDocumentedRule)
{
    EXPECT_EQ(classifyRegime(1.0, 0.2, 0), "dispatch_bound");
    EXPECT_EQ(classifyRegime(1.0, 30.0, 0), "gpu_bound");
    EXPECT_EQ(classifyRegime(1.0, 1.1, 0), "balanced");
    EXPECT_EQ(classifyRegime(1.0, 4.0, 3000), "balanced"); // host work counts with dispatch
    EXPECT_EQ(classifyRegime(1.0, 1.25, 0), "gpu_bound");
}
