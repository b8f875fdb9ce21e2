// A real CPU run written, read back and shown: the files and the queue model on what the runner makes.
#include "core/engine/run/experimentrunner.h"
#include "core/queuemodel/prediction.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"

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

TEST(Prediction, IsWrittenReadBackAndShown)
{
    ExperimentConfig c;
    c.name = "predicted";
    c.device = "cpu";
    c.stepsPerBlock = 2;
    c.blocks = 2;
    c.minBlocks = 2;
    c.warmupMinSteps = 0;
    c.warmupMaxSteps = 2;
    c.models = { ModelSpec { "tiny_mlp", 4, 8, 8, 3 } };
    c.styles = { { "none", 0 }, { "item", 0 } };
    ExperimentResult run = ExperimentRunner(c).run(std::atomic<bool> { false });
    EXPECT_FALSE(run.cells.at(1).prediction); // no queue on the CPU: nothing to predict from
    run.cells.at(1).prediction = Prediction { 2.125, "balanced" };

    const ResultsLoadResult loaded = loadResultsText(toJson(run).dump(1), "predicted.json");
    ASSERT_TRUE(loaded.result) << formatErrors(loaded.errors);
    const auto& back = loaded.result->cells;
    EXPECT_FALSE(back.at(0).prediction);
    ASSERT_TRUE(back.at(1).prediction);
    EXPECT_DOUBLE_EQ(back.at(1).prediction->overheadPct, 2.125);
    EXPECT_EQ(back.at(1).prediction->regime, "balanced");
    const std::string table = formatTable(*loaded.result);
    EXPECT_NE(table.find("pred +2.1%"), std::string::npos) << table;
}
