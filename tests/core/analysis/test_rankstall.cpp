// The stall chart's lanes from the ranks' step logs: rank 0's step time and the other ranks' waits,
// over one cell's measured steps in the order they ran. The logs are hand-built here.
#include "core/analysis/rankstall.h"

#include <gtest/gtest.h>

#include <array>

using namespace synctax;

namespace {

// One cell's steps (and another cell's between them): start ms, host ms to the logging's return, wait ms.
StepLog log(const std::vector<std::array<double, 4>>& steps, bool withWait)
{
    StepLog l;
    l.cells = { cellPlan(0, { { "tiny_mlp", "eager", 0, 16 }, "item" }),
        cellPlan(1, { { "tiny_mlp", "eager", 0, 16 }, "none" }) };
    l.hasCollectiveWait = withWait;
    for (const auto& [round, startMs, hostMs, waitMs] : steps) {
        for (uint32_t cell : { 0u, 1u }) {
            StepRecord r;
            r.cell = cell;
            r.round = int32_t(round);
            r.startNs = int64_t(startMs * 1e6) + cell * 100'000'000;
            r.dispatchedNs = r.startNs + int64_t(hostMs * 0.5e6);
            r.loggedNs = r.startNs + int64_t(hostMs * 1e6);
            r.collectiveWaitMs = withWait ? waitMs + cell : -1;
            l.records.push_back(r);
        }
    }
    return l;
}

} // namespace

TEST(RankStall, RankZerosStepTimeThenTheOthersWaitsOfTheMeasuredSteps)
{
    // Rank 0 stalls (4 ms) in its third measured step; rank 1 waits for it in that step. The
    // unrecorded round (-1) is left out; the file's order is not the run's (blocks sorted by start).
    const StepLog rank0 = log({ { -1, 0, 9, 0 }, { 1, 30, 4, 0.1 }, { 0, 10, 1, 0.1 }, { 0, 12, 1, 0.2 } }, true);
    const StepLog rank1 = log({ { -1, 0, 1, 8 }, { 1, 30, 1, 3.9 }, { 0, 10, 1, 0.5 }, { 0, 12, 1, 0.4 } }, true);
    const GroupKey group { "tiny_mlp", "eager", 0, 16 };
    // Given rank 1 first: the lanes still start with rank 0.
    const std::vector<RankStallLane> lanes = rankStallLanes({ { 1, &rank1 }, { 0, &rank0 } }, group, "item");
    ASSERT_EQ(lanes.size(), 3u);
    EXPECT_EQ(lanes[0].rank, 0);
    EXPECT_EQ(lanes[0].kind, RankStallLane::Kind::StepTime);
    EXPECT_EQ(lanes[0].ms, (std::vector<double> { 1, 1, 4 }));
    EXPECT_EQ(lanes[1].rank, 0);
    EXPECT_EQ(lanes[1].kind, RankStallLane::Kind::CollectiveWait);
    EXPECT_EQ(lanes[1].ms, (std::vector<double> { 0.1, 0.2, 0.1 }));
    EXPECT_EQ(lanes[2].rank, 1);
    EXPECT_EQ(lanes[2].kind, RankStallLane::Kind::CollectiveWait);
    EXPECT_EQ(lanes[2].ms, (std::vector<double> { 0.5, 0.4, 3.9 }));
    // The other cell's own steps (its waits 1 ms more here).
    const std::vector<RankStallLane> none = rankStallLanes({ { 0, &rank0 }, { 1, &rank1 } }, group, "none");
    ASSERT_EQ(none.size(), 3u);
    EXPECT_EQ(none[2].ms, (std::vector<double> { 1.5, 1.4, 4.9 }));
}

TEST(RankStall, RanksWithoutALogTheCellOrTheWaitHaveNoLane)
{
    const StepLog rank0 = log({ { 0, 10, 2, 0 } }, true);
    const StepLog old = log({ { 0, 10, 2, 0 } }, false); // a file from before collective_wait_ms
    const GroupKey group { "tiny_mlp", "eager", 0, 16 };
    // Rank 0's step time and wait; rank 1 without the column and rank 2 without a log have none.
    EXPECT_EQ(rankStallLanes({ { 0, &rank0 }, { 1, &old }, { 2, nullptr } }, group, "item").size(), 2u);
    EXPECT_TRUE(rankStallLanes({ { 0, &rank0 } }, group, "print_every_step").empty());
    // Rank 0's own step time needs no wait column.
    const std::vector<RankStallLane> lanes = rankStallLanes({ { 0, &old }, { 1, &rank0 } }, group, "item");
    ASSERT_EQ(lanes.size(), 2u);
    EXPECT_EQ(lanes[0].kind, RankStallLane::Kind::StepTime);
    EXPECT_EQ(lanes[0].ms, (std::vector<double> { 2 }));
    EXPECT_EQ(lanes[1].rank, 1);
    EXPECT_EQ(lanes[1].ms, (std::vector<double> { 0 }));
}
