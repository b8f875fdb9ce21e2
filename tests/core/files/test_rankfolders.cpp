// Where a data-parallel rank's outputs are, as the launcher's results.json says: each rank's
// folder, written and read back, refused when it would point outside the results' folder, and
// rank-K for files written before the folder was recorded. The values are hand-built here.
#include "core/files/resultsjson.h"
#include "core/files/resultsloader.h"
#include "core/files/runoutputs.h"
#include "tests/core/files/sampleresult.h"

#include <gtest/gtest.h>

using namespace synctax;

namespace {

ExperimentResult withRankFolders(const std::string& folder1)
{
    ExperimentResult r = sampleResult();
    r.config.distributed = DistributedSpec { CollectiveBackend::Gloo, 2, SyncOn::Rank0, 30 };
    r.distributed = DistributedResult {};
    for (int k = 0; k < 2; ++k) {
        RankOutcome rank;
        rank.rank = k;
        rank.status = "ok";
        rank.folder = k == 0 ? "rank-0" : folder1;
        r.distributed->ranks.push_back(rank);
    }
    return r;
}

} // namespace

TEST(RankFolders, AreWrittenAndReadBack)
{
    const ExperimentResult written = withRankFolders("elsewhere/rank-1");
    const std::string text = toJson(written).dump();
    EXPECT_NE(text.find(R"("folder":"rank-0")"), std::string::npos) << text;
    const ResultsLoadResult back = loadResultsText(text, "ranks.json");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    const std::vector<RankOutcome>& ranks = back.result->distributed->ranks;
    ASSERT_EQ(ranks.size(), 2u);
    EXPECT_EQ(ranks[0].folder, "rank-0");
    EXPECT_EQ(ranks[1].folder, "elsewhere/rank-1");
    EXPECT_EQ(rankStepsPath("/runs/ddp", ranks[1]), "/runs/ddp/elsewhere/rank-1/steps.csv");
}

TEST(RankFolders, OutsideTheResultsFolderAreRefused)
{
    for (const std::string folder : { "../rank-1", "rank-1/../../etc", "/tmp/rank-1", "" }) {
        SCOPED_TRACE(folder);
        auto j = toJson(withRankFolders("rank-1"));
        j["distributed"]["ranks"][1]["folder"] = folder;
        const ResultsLoadResult back = loadResultsText(j.dump(), "ranks.json");
        ASSERT_FALSE(back.result);
        ASSERT_EQ(back.errors.size(), 1u);
        EXPECT_NE(back.errors[0].message.find("/distributed/ranks/1/folder"), std::string::npos)
            << back.errors[0].message;
    }
}

TEST(RankFolders, AreRankKWhereTheFileHasNone)
{
    RankOutcome rank;
    rank.rank = 3;
    EXPECT_EQ(rankFolderName(3), "rank-3");
    EXPECT_EQ(rankStepsPath("out", rank), "out/rank-3/steps.csv");
    // And a file without "folder" reads back without one.
    ExperimentResult r = withRankFolders("rank-1");
    r.distributed->ranks[1].folder.clear();
    const ResultsLoadResult back = loadResultsText(toJson(r).dump(), "ranks.json");
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->distributed->ranks[1].folder, "");
}
