// The trace what-if with the loop's phases timed unprofiled (ImportedLoopOptions::phasesMs), on two
// real loops against their own measurement. tests/data/traces/torch-2.11-h200/phases holds each
// loop's `none` trace and measurements/whatif.json: the unprofiled interleaved measurement of `item` against
// `none` (host work 0, and the model's middle-regime host work before the sync), and its phases
// timed from an idle GPU in blocks among those rounds (scripts/whatif-traces.py). The goal the
// replay is held to: the `item` tax within 3 points of the measurement.
#include "core/analysis/traceanalysis.h"
#include "core/files/kinetoreader.h"
#include "core/queuemodel/tracewhatif.h"

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
