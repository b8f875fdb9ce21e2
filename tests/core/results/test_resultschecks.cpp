// A results file read back is held to what the runner guarantees of its own: every style known,
// each cell once, a baseline in every group, and each cell's rounds a number; in the top-level
// cells and in each rank's list alike. The files are hand-built from sampleresult.h; the corpus
// in tests/data/bad-results has one file per refusal.
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "tests/core/results/sampleresult.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace synctax;

namespace {

ResultsLoadResult reread(const nlohmann::json& j) { return loadResultsText(j.dump(), "results.json"); }

} // namespace

TEST(ResultsChecks, TheRunnersOwnCellsReadBack)
{
    ExperimentResult r = sampleResult();
    CellResult aa = r.cells[0];
    aa.style = "aa_control";
    CellResult observer = r.cells[0];
    observer.style = "none_no_events";
    r.cells.push_back(aa);
    r.cells.push_back(observer);
    r.cells[1].pairedRounds = 7;
    const ResultsLoadResult back = reread(toJson(r));
    ASSERT_TRUE(back.result) << formatErrors(back.errors);
    EXPECT_EQ(back.result->cells[1].pairedRounds, 7);
    EXPECT_EQ(back.result->cells.size(), r.cells.size());
}

TEST(ResultsChecks, ACellsRoundsAreANumber)
{
    nlohmann::json j = toJson(sampleResult());
    j["cells"][1]["rounds"] = "many";
    const ResultsLoadResult back = reread(j);
    EXPECT_FALSE(back.result);
    EXPECT_EQ(formatErrors(back.errors), "results.json: /cells/1/rounds: expected a number, found a string\n");
}

TEST(ResultsChecks, EachSweepPointNeedsItsBaseline)
{
    ExperimentResult r = sampleResult();
    r.config.hostWorkUs = 0;
    r.config.sweep = SweepSpec { { 0, 500 }, {} };
    CellResult none = r.cells[0];
    CellResult item = r.cells[1];
    none.hostWorkUs = item.hostWorkUs = 500;
    r.cells.push_back(none);
    r.cells.push_back(item);
    ASSERT_TRUE(reread(toJson(r)).result) << formatErrors(reread(toJson(r)).errors);
    r.cells.erase(r.cells.end() - 2);
    const ResultsLoadResult back = reread(toJson(r));
    EXPECT_FALSE(back.result);
    EXPECT_NE(formatErrors(back.errors).find("/cells/3: tiny_mlp/eager h=0.5 ms has no 'none' cell"), std::string::npos)
        << formatErrors(back.errors);
}

TEST(ResultsChecks, ARanksCellsAreCheckedAsTheTopLevelsAre)
{
    ExperimentResult r = sampleResult();
    r.config.distributed = DistributedSpec { CollectiveBackend::Gloo, 2, SyncOn::Rank0, 30 };
    r.distributed = DistributedResult {};
    RankOutcome rank;
    rank.status = "ok";
    rank.cells = { r.cells[0], r.cells[1], r.cells[1] };
    r.distributed->ranks.push_back(rank);
    r.distributed->singleProcess = { r.cells[1] };
    const ResultsLoadResult back = reread(toJson(r));
    EXPECT_FALSE(back.result);
    const std::string errors = formatErrors(back.errors);
    EXPECT_NE(errors.find("/distributed/ranks/0/cells/2: the same cell as /distributed/ranks/0/cells/1 "
                          "(tiny_mlp/eager/item)"),
        std::string::npos)
        << errors;
    EXPECT_NE(errors.find("/distributed/single_process/0: tiny_mlp/eager has no 'none' cell"), std::string::npos)
        << errors;
}

TEST(ResultsChecks, AStyleOutsideTheCatalogIsNamedWithTheKnownOnes)
{
    nlohmann::json j = toJson(sampleResult());
    j["cells"][1]["style"] = "frobnicate";
    const ResultsLoadResult back = reread(j);
    EXPECT_FALSE(back.result);
    ASSERT_EQ(back.errors.size(), 1u);
    EXPECT_NE(back.errors[0].message.find("/cells/1/style: unknown style \"frobnicate\"; expected none, item, "),
        std::string::npos)
        << back.errors[0].message;
    EXPECT_NE(back.errors[0].message.find("aa_control"), std::string::npos) << back.errors[0].message;
}
