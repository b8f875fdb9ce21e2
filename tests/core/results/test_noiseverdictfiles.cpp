// The noise verdict in the files: written to results.json, read back, judged on load for files
// written before it, and said at the end of the table.
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace synctax;

namespace {

CellResult cell(const std::string& model, const std::string& style, std::optional<Interval> overhead)
{
    CellResult c;
    c.model = model;
    c.mode = "eager";
    c.style = style;
    c.stepsMeasured = 12;
    c.stepMs = { 1.0, 0.9, 1.1, 1.0 };
    c.blockRounds = { 0, 1, 2 };
    c.blockStepMs = { 1.0, 1.1, 0.9 };
    c.overheadPct = overhead;
    c.verdict = overhead ? Verdict::WithinNoise : Verdict::Baseline;
    return c;
}

// tiny_mlp's A/A control excludes zero (the 3-round CPU run's +9.8% [+1.3, +21.1]); resnet50's is quiet.
ExperimentResult twoModels()
{
    ExperimentResult r;
    r.config.name = "noisy";
    r.config.device = "cpu";
    r.config.models = { ModelSpec { "tiny_mlp", 4, 8, 8, 3 }, ModelSpec { "resnet50", 2, 16, 32, 10 } };
    r.config.styles = { { "none", 0 }, { "item", 0 } };
    r.environment.device = "cpu";
    for (const char* model : { "tiny_mlp", "resnet50" }) {
        const bool noisy = std::string(model) == "tiny_mlp";
        r.cells.push_back(cell(model, "none", std::nullopt));
        r.cells.push_back(cell(model, "aa_control", noisy ? Interval { 9.8, 1.3, 21.1 } : Interval { 0.1, -0.6, 0.7 }));
        r.cells.push_back(cell(model, "item", Interval { 0.5, -1.0, 2.0 }));
        GroupResult g;
        g.model = model;
        g.mode = "eager";
        g.rounds = 3;
        g.noiseFloorPct = noisy ? 21.1 : 0.7;
        g.noiseVerdict = noisy ? NoiseVerdict::ControlNotWithinNoise : NoiseVerdict::Trusted;
        r.groups.push_back(g);
    }
    return r;
}

} // namespace

TEST(NoiseVerdictFiles, WrittenAndReadBack)
{
    ExperimentResult r = twoModels();
    // Not what the cells would give on load: the file's verdict is read, not judged again.
    r.groups[1].noiseVerdict = NoiseVerdict::NoControl;
    const nlohmann::json j = toJson(r);
    EXPECT_EQ(j["groups"][0]["noise_verdict"], "aa_control_not_within_noise");
    EXPECT_EQ(j["groups"][1]["noise_verdict"], "no_control");
    const ResultsLoadResult loaded = loadResultsText(j.dump(1), "noisy.json");
    ASSERT_TRUE(loaded.result) << formatErrors(loaded.errors);
    EXPECT_EQ(loaded.result->groups.at(0).noiseVerdict, NoiseVerdict::ControlNotWithinNoise);
    EXPECT_EQ(loaded.result->groups.at(1).noiseVerdict, NoiseVerdict::NoControl);
}

TEST(NoiseVerdictFiles, AFileWithoutTheVerdictIsJudgedOnLoad)
{
    ExperimentResult r = twoModels();
    nlohmann::json j = toJson(r);
    for (auto& g : j["groups"])
        g.erase("noise_verdict");
    const ResultsLoadResult loaded = loadResultsText(j.dump(1), "older.json");
    ASSERT_TRUE(loaded.result) << formatErrors(loaded.errors);
    EXPECT_EQ(loaded.result->groups.at(0).noiseVerdict, NoiseVerdict::ControlNotWithinNoise);
    EXPECT_EQ(loaded.result->groups.at(1).noiseVerdict, NoiseVerdict::Trusted);
}

TEST(NoiseVerdictFiles, AnUnknownVerdictIsReported)
{
    nlohmann::json j = toJson(twoModels());
    j["groups"][1]["noise_verdict"] = "noisy";
    const ResultsLoadResult loaded = loadResultsText(j.dump(1), "bad.json");
    EXPECT_FALSE(loaded.result);
    EXPECT_NE(formatErrors(loaded.errors)
                  .find("/groups/1/noise_verdict: expected trusted, no_control, aa_control_not_within_noise or "
                        "noise_floor_too_high, found \"noisy\""),
        std::string::npos)
        << formatErrors(loaded.errors);
}

TEST(NoiseVerdictFiles, TheTableSaysAtItsEndThatItIsTooNoisy)
{
    ExperimentResult r = twoModels();
    for (auto& g : r.groups)
        g.regime.available = true; // a GPU run: nothing follows the verdict (a CPU run adds its no-queue line)
    const std::string table = formatTable(r);
    const std::string end = "TOO NOISY to tell styles apart: no overhead above is a finding.\n"
                            "  tiny_mlp: the A/A control's interval excludes 0\n"
                            "  tiny_mlp: noise floor 21.1% is above 5%\n"
                            "  More rounds (time_budget_s, blocks) or a quieter machine narrow the noise.\n";
    ASSERT_GE(table.size(), end.size()) << table;
    EXPECT_EQ(table.substr(table.size() - end.size()), end) << table;
    EXPECT_EQ(formatNoiseVerdicts(r), end);
    std::istringstream lines(formatNoiseVerdicts(r));
    for (std::string line; std::getline(lines, line);)
        EXPECT_LT(line.size(), 80u) << line;

    r.groups[0].noiseVerdict = NoiseVerdict::Trusted;
    r.groups[0].noiseFloorPct = 0.7;
    EXPECT_EQ(formatNoiseVerdicts(r), "");
    EXPECT_EQ(formatTable(r).find("TOO NOISY"), std::string::npos);
}
