#include "core/engine/experimentrunner.h"
#include "core/files/resultsjson.h"
#include "core/files/resultsloader.h"
#include "tests/core/corpus.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(ResultsLoader, ARunReadsBackToTheSameJson)
{
    ExperimentConfig c;
    c.name = "roundtrip";
    c.device = "cpu";
    c.stepsPerBlock = 2;
    c.blocks = 3;
    c.warmupMinSteps = 0;
    c.warmupMaxSteps = 2;
    c.models = { ModelSpec { "tiny_mlp", 4, 8, 8, 3 } };
    c.styles = { { "none", 0 }, { "item", 0 }, { "item_every_n", 4 } };
    const ExperimentResult run = ExperimentRunner(c).run(std::atomic<bool> { false });
    const std::string text = toJson(run).dump(2);

    const ResultsLoadResult loaded = loadResultsText(text, "run.json");
    ASSERT_TRUE(loaded.result) << formatErrors(loaded.errors);
    const ExperimentResult& back = *loaded.result;
    EXPECT_EQ(back.cells.size(), run.cells.size());
    EXPECT_EQ(toJson(back.config), toJson(run.config));
    for (size_t i = 0; i < run.cells.size(); ++i) {
        EXPECT_EQ(back.cells[i].style, run.cells[i].style);
        EXPECT_EQ(back.cells[i].blockStepMs, run.cells[i].blockStepMs);
        EXPECT_EQ(back.cells[i].verdict, run.cells[i].verdict);
        EXPECT_EQ(back.cells[i].overheadPct.has_value(), run.cells[i].overheadPct.has_value());
    }
    EXPECT_EQ(back.groups.at(0).regime.reason, "no asynchronous queue on CPU");
    EXPECT_EQ(back.environment.device, "cpu");
}

TEST(ResultsLoader, EachBadFileIsRejectedWithItsMessage)
{
    const auto cases = corpus(SYNCTAX_TEST_DATA "/bad-results", ".json");
    for (const auto& [path, expected] : cases) {
        const ResultsLoadResult r = loadResultsFile(path);
        EXPECT_FALSE(r.result) << path << " was accepted";
        const std::string errors = formatErrors(r.errors);
        EXPECT_NE(errors.find(expected), std::string::npos) << path << "\nexpected: " << expected << "\ngot:\n"
                                                            << errors;
    }
    EXPECT_GE(cases.size(), 20u);
}

TEST(ResultsLoader, AMissingFileSaysSo)
{
    const auto r = loadResultsFile("/nonexistent/results.json");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].format(), "/nonexistent/results.json: cannot open the file for reading");
}
