// The trace what-if with the loop's phases timed unprofiled (ImportedLoopOptions::phasesMs), on two
// real loops against their own measurement. tests/data/traces/torch-2.11-h200/phases holds each
// loop's `none` trace and measurements/whatif.json: the unprofiled interleaved measurement of `item` against
// `none` (host work 0, and the model's middle-regime host work before the sync), and its phases
// timed from an idle GPU in blocks among those rounds (scripts/gpu/whatif-traces.py). The goal the
// replay is held to: the `item` tax within 3 points of the measurement.
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracewhatif.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace synctax;

namespace {

const std::string kDir = SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/phases";

double itemTax(const WhatIf& w)
{
    for (const WhatIfRow& r : w.rows) {
        if (r.style == "item")
            return r.taxPct;
    }
    ADD_FAILURE() << "no item row";
    return 0;
}

} // namespace

TEST(TraceWhatIfPhases, TheItemTaxOfTwoRealLoopsIsWithinThreePointsOfTheirMeasurement)
{
    std::ifstream in(kDir + "/measurements/whatif.json");
    ASSERT_TRUE(in) << kDir;
    const nlohmann::json measured = nlohmann::json::parse(in);
    ASSERT_EQ(measured.at("models").size(), 2u);
    for (const nlohmann::json& m : measured.at("models")) {
        const std::string model = m.at("model");
        const TraceReadResult read = readKinetoTrace(kDir + "/" + model + "-none.pt.trace.json.gz");
        ASSERT_TRUE(read.trace) << model;
        const TraceReport report = analyseTrace(*read.trace);
        const nlohmann::json& us = m.at("phases_idle_us");
        ImportedLoopOptions options;
        options.phasesMs
            = std::array<double, 3> { (us.at("zero_grad").get<double>() + us.at("forward").get<double>()) * 1e-3,
                  us.at("backward").get<double>() * 1e-3, us.at("optimizer").get<double>() * 1e-3 };
        const ImportedLoop loop = importedLoop(*read.trace, report, options);
        ASSERT_TRUE(loop.available) << model << ": " << loop.reason;
        ASSERT_FALSE(loop.calibration.hostKnots.empty()) << model << ": " << loop.calibration.how;
        // The phases' end lands where they add up to.
        EXPECT_NEAR(loop.calibration.hostKnots.back().second,
            (us.at("zero_grad").get<double>() + us.at("forward").get<double>() + us.at("backward").get<double>()
                + us.at("optimizer").get<double>()),
            1e-6)
            << model;

        const double host0 = m.at("paired_host0").at("item").at("pct");
        EXPECT_NEAR(itemTax(whatIf(loop, 0)), host0, 3.0) << model << " at host work 0";
        const double middleUs = m.at("middle_host_ms").get<double>() * 1e3;
        const double middle = m.at("paired_middle").at("item").at("pct");
        EXPECT_NEAR(itemTax(whatIf(loop, middleUs, true)), middle, 3.0) << model << " at " << middleUs << " us";
    }
}

TEST(TraceWhatIfPhases, PhaseTimesAreReadAsThreeNumbersInRange)
{
    for (const std::string text : { "11.86,13.72,1.46", "11.86 13.72 1.46", " 11.86, 13.72 ,1.46 " }) {
        const PhasesRead read = readPhasesMs(text);
        ASSERT_TRUE(read.ms) << text << ": " << read.problem;
        EXPECT_TRUE(read.problem.empty());
        EXPECT_EQ((*read.ms)[0], 11.86);
        EXPECT_EQ((*read.ms)[1], 13.72);
        EXPECT_EQ((*read.ms)[2], 1.46);
    }
    const struct {
        const char* text;
        const char* problem;
    } refused[] = { { "9,13", "expected three numbers F,B,O (ms), found '9,13'" },
        { "", "expected three numbers F,B,O (ms), found ''" },
        { "9,13,1,2", "expected three numbers F,B,O (ms), found '9,13,1,2'" },
        { "9,0,1", "0 is out of range; expected 0.001 to 1e+06" },
        { "9,2e6,1", "2e6 is out of range; expected 0.001 to 1e+06" }, { "9,x,1", "expected a number, found 'x'" },
        { "9,nan,1", "expected a number, found 'nan'" } };
    for (const auto& r : refused) {
        const PhasesRead read = readPhasesMs(r.text);
        EXPECT_FALSE(read.ms) << r.text;
        EXPECT_EQ(read.problem, r.problem) << r.text;
    }
}

TEST(TraceWhatIfPhases, TheBlocksSpreadOfTwoRealLoopsRaisesTheirItemTaxAndKeepsItWithinThreePoints)
{
    std::ifstream in(kDir + "/measurements/whatif.json");
    ASSERT_TRUE(in) << kDir;
    const nlohmann::json measured = nlohmann::json::parse(in);
    for (const nlohmann::json& m : measured.at("models")) {
        const std::string model = m.at("model");
        const TraceReadResult read = readKinetoTrace(kDir + "/" + model + "-none.pt.trace.json.gz");
        ASSERT_TRUE(read.trace) << model;
        const TraceReport report = analyseTrace(*read.trace);
        const PhasesFileRead blocks = loadPhasesFile(kDir + "/measurements/" + model + "-idle-blocks.csv");
        ASSERT_TRUE(blocks.errors.empty()) << formatErrors(blocks.errors);
        ASSERT_EQ(blocks.rows.size(), 30u) << model;
        ImportedLoopOptions options;
        options.phasesSpreadMs = blocks.rows;
        const ImportedLoop spread = importedLoop(*read.trace, report, options);
        ASSERT_TRUE(spread.available) << model << ": " << spread.reason;
        ASSERT_EQ(spread.spreadBase.size(), kSpreadHosts) << model << ": " << spread.calibration.how;
        ASSERT_EQ(spread.spreadRecorded.size(), kSpreadHosts) << model;

        // One host: the blocks' median, phase by phase, which the spread's loop is also calibrated to.
        ImportedLoopOptions one;
        one.phasesMs = medianPhases(options.phasesSpreadMs);
        const ImportedLoop median = importedLoop(*read.trace, report, one);
        EXPECT_EQ(median.calibration.hostKnots, spread.calibration.hostKnots) << model;

        const double host0 = m.at("paired_host0").at("item").at("pct");
        const double spreadTax = itemTax(whatIf(spread, 0));
        EXPECT_NEAR(spreadTax, host0, 3.0) << model << " at host work 0";
        // A block slower than the median costs a loop that syncs more than a faster one saves it.
        EXPECT_GT(spreadTax, itemTax(whatIf(median, 0)) + 0.3) << model;
        const double middleUs = m.at("middle_host_ms").get<double>() * 1e3;
        EXPECT_NEAR(
            itemTax(whatIf(spread, middleUs, true)), m.at("paired_middle").at("item").at("pct").get<double>(), 3.0)
            << model << " at " << middleUs << " us";
    }
}

TEST(TraceWhatIfPhases, ASpreadOfOneTimingPredictsAsThatTimingAlone)
{
    const TraceReadResult read = readKinetoTrace(kDir + "/resnet50-none.pt.trace.json.gz");
    ASSERT_TRUE(read.trace);
    const TraceReport report = analyseTrace(*read.trace);
    const std::array<double, 3> ms { 11.86, 13.72, 1.46 };
    ImportedLoopOptions alone;
    alone.phasesMs = ms;
    ImportedLoopOptions spread;
    spread.phasesSpreadMs = { ms, ms, ms };
    for (const double hostWorkUs : { 0.0, 15000.0 }) {
        const WhatIf a = whatIf(importedLoop(*read.trace, report, alone), hostWorkUs);
        const WhatIf b = whatIf(importedLoop(*read.trace, report, spread), hostWorkUs);
        ASSERT_EQ(a.rows.size(), b.rows.size());
        for (size_t i = 0; i < a.rows.size(); ++i) {
            EXPECT_EQ(a.rows[i].style, b.rows[i].style);
            EXPECT_NEAR(a.rows[i].stepMs, b.rows[i].stepMs, 1e-9) << a.rows[i].style;
            EXPECT_NEAR(a.rows[i].taxPct, b.rows[i].taxPct, 1e-9) << a.rows[i].style;
        }
        EXPECT_NE(b.model.find("replayed at 3 of 3 phase timings"), std::string::npos) << b.model;
    }
}

TEST(TraceWhatIfPhases, TheSpreadReplaysTwentyTimingsSpreadOverTheirTotalsFastestFirst)
{
    std::vector<std::array<double, 3>> rows;
    for (int i = 40; i >= 1; --i) // slowest first, and each total i + 2 ms
        rows.push_back({ double(i), 1.0, 1.0 });
    const std::vector<std::array<double, 3>> picked = spreadQuantiles(rows);
    ASSERT_EQ(picked.size(), kSpreadHosts);
    for (size_t k = 0; k < picked.size(); ++k) // the middle of each share of two: the second
        EXPECT_EQ(picked[k][0], double(2 * k + 2)) << k;
    const std::vector<std::array<double, 3>> few = spreadQuantiles({ { 3, 1, 1 }, { 1, 1, 1 }, { 2, 1, 1 } });
    ASSERT_EQ(few.size(), 3u);
    EXPECT_EQ(few[0][0], 1.0);
    EXPECT_EQ(few[2][0], 3.0);
    const std::array<double, 3> median = medianPhases({ { 1, 10, 5 }, { 3, 30, 4 }, { 2, 20, 6 } });
    EXPECT_EQ(median, (std::array<double, 3> { 2, 20, 5 }));
}

TEST(TraceWhatIfPhases, APhasesFileIsReadLineByLineAndEachRefusedLineIsLocated)
{
    const PhasesFileRead good = readPhasesFile(
        "forward,backward,optimizer\r\n10.3,10.9,1.2\n# a block left out\n\n  9.5 11 1.1  # fast\n", "p.csv");
    EXPECT_TRUE(good.errors.empty()) << formatErrors(good.errors);
    ASSERT_EQ(good.rows.size(), 2u);
    EXPECT_EQ(good.rows[1], (std::array<double, 3> { 9.5, 11, 1.1 }));

    const PhasesFileRead bad = readPhasesFile("10,11,1\n9,x,1\n9,13\nforward,backward,optimizer\n", "p.csv");
    EXPECT_EQ(formatErrors(bad.errors),
        "p.csv:2:3: expected a number, found 'x'\n"
        "p.csv:3:1: expected three numbers F,B,O (ms), found '9,13'\n"
        "p.csv:4:1: expected a number, found 'forward'\n"); // a header only on the first line
    EXPECT_EQ(formatErrors(readPhasesFile("# nothing\n\n", "e.csv").errors),
        "e.csv: expected lines of three numbers F,B,O (ms), found none\n");
    EXPECT_EQ(readPhasesMs("9, 0,1").problemColumn, 3u);
}

TEST(TraceWhatIfPhases, SeveralTimingsInOneFieldAreReadWithTheRefusedOneNamedByItsPlace)
{
    const PhasesListRead two = readPhasesList("11.86, 13.72, 1.46; 15.5 13.72 1.46");
    EXPECT_TRUE(two.problem.empty()) << two.problem;
    ASSERT_EQ(two.rows.size(), 2u);
    EXPECT_EQ(two.rows[1][0], 15.5);
    EXPECT_EQ(readPhasesList("11.86,13.72,1.46;15.5,x,1.46").problem, "timing 2: expected a number, found 'x'");
    const PhasesListRead bad = readPhasesList("11.86,x,1.46");
    EXPECT_EQ(bad.problem, "expected a number, found 'x'"); // one timing: as --phases-ms says it
    EXPECT_TRUE(bad.rows.empty());
    const PhasesListRead none = readPhasesList("  ; ");
    EXPECT_TRUE(none.rows.empty());
    EXPECT_TRUE(none.problem.empty());
}
