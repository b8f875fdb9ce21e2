#include "core/results/runoutputs.h"

#include "core/results/resultsjson.h"
#include "core/results/resulttable.h"
#include "core/results/stepcsvwriter.h"
#include "sampleresult.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace synctax;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct RunOutputsTest : ::testing::Test {
    void SetUp() override
    {
        dir = fs::temp_directory_path() / ("synctax-test-outputs-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        StepRecord r;
        r.startNs = 1'000'000;
        r.dispatchedNs = 2'000'000;
        r.loggedNs = 2'000'500;
        steps = { r };
    }
    void TearDown() override { fs::remove_all(dir); }

    fs::path dir;
    ExperimentResult result = sampleResult();
    std::vector<StepRecord> steps;
    std::vector<CellPlan> cells { cellPlan(0, { { "tiny_mlp", "eager" }, "none" }) };
};

} // namespace

TEST_F(RunOutputsTest, AResultAloneGivesResultsAndSummary)
{
    const auto written = writeRunOutputs(dir.string(), { result });
    EXPECT_EQ(written, (std::vector<std::string> { (dir / "results.json").string(), (dir / "summary.csv").string() }));
    EXPECT_EQ(readFile(dir / "results.json"), toJson(result).dump(2) + "\n");
    EXPECT_EQ(readFile(dir / "summary.csv"), summaryCsv(result));
    EXPECT_FALSE(fs::exists(dir / "steps.csv"));
}

TEST_F(RunOutputsTest, KeptStepsGiveStepsCsvAndTheTraceWhereAsked)
{
    const std::string trace = (dir / "elsewhere.json").string();
    const auto written = writeRunOutputs(dir.string(), { result, &steps, &cells, true, trace });
    ASSERT_EQ(written.size(), 4u);
    EXPECT_EQ(written[2], (dir / "steps.csv").string());
    EXPECT_EQ(written[3], trace);
    EXPECT_EQ(readFile(dir / "steps.csv"), std::string(stepCsvHeader()) + stepCsvRow(steps[0], cells[0]));
    EXPECT_NE(readFile(trace).find("\"traceEvents\""), std::string::npos);
    // Streamed steps (synctax-run) are not written again; the trace still is.
    fs::remove(dir / "steps.csv");
    EXPECT_EQ(writeRunOutputs(dir.string(), { result, &steps, &cells, false, trace }).size(), 3u);
    EXPECT_FALSE(fs::exists(dir / "steps.csv"));
}

TEST_F(RunOutputsTest, AnUnwritableFileIsNamed)
{
    fs::create_directories(dir / "summary.csv.tmp"); // a temporary file cannot be opened there
    try {
        writeRunOutputs(dir.string(), { result });
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("summary.csv"), std::string::npos) << e.what();
    }
}
