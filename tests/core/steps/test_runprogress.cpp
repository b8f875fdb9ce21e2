#include "core/steps/runprogress.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(RunProgress, TimeLeftIsTheSmallerOfBudgetAndBlocksPerModel)
{
    // A model with thousands of rounds left but 30 s of budget ends within 30 s; one with 10
    // blocks left at 0.1 s a block ends in about 1 s, however large its budget.
    EXPECT_DOUBLE_EQ(estimateRemainingS({ { 50000, 30.0 } }, 0.01), 30.0);
    EXPECT_DOUBLE_EQ(estimateRemainingS({ { 10, 900.0 } }, 0.1), 1.0);
    EXPECT_DOUBLE_EQ(estimateRemainingS({ { 50000, 30.0 }, { 10, 900.0 } }, 0.1), 31.0);
    EXPECT_DOUBLE_EQ(estimateRemainingS({ { 10, 900.0 } }, 0.0), 900.0); // no pace yet: the budget
    EXPECT_DOUBLE_EQ(estimateRemainingS({ { -3, -2.0 } }, 0.1), 0.0); // overrun counts as nothing left

    RunProgress p;
    p.blocksDone = 1;
    p.blocksTotal = 1000;
    p.elapsedS = 30;
    p.remainingS = 10;
    EXPECT_DOUBLE_EQ(p.fraction(), 0.75); // by time, not by the 0.1% of blocks
    p.remainingS = -1;
    EXPECT_DOUBLE_EQ(p.fraction(), 0.001);
}
