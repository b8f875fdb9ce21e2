// trace-summary.json's `whatif` on a real trace. A plumbing test: the expected rows and calibration
// are the model's own (importedLoop and whatIf called here), since what is checked is that the file
// carries them unchanged; the structure (styles in catalog order, tax against `none`) is checked
// against the catalog and the definition.
#include "core/config/stylecatalog.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracesummary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace synctax;

namespace {

nlohmann::json writtenAndRead(const TraceReport& report, const ImportedLoop& loop, const WhatIf& w)
{
    const auto dir = std::filesystem::temp_directory_path() / "synctax-test-tracesummary-whatif";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "trace-summary.json").string();
    writeTraceSummary(path, report, loop, w);
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in);
    std::filesystem::remove_all(dir);
    return j;
}

} // namespace

TEST(TraceSummaryWhatIf, CarriesWhatIfOfARealTrace)
{
    const TraceReadResult read
        = readKinetoTrace(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz");
    ASSERT_TRUE(read.trace);
    const TraceReport report = analyseTrace(*read.trace);
    const ImportedLoop loop = importedLoop(*read.trace, report, {});
    ASSERT_TRUE(loop.available) << loop.reason;
    const WhatIf w = whatIf(loop, 2500);
    const nlohmann::json j = writtenAndRead(report, loop, w);

    // The report's keys as they were, under the same schema: old readers read the file as before.
    EXPECT_EQ(j.at("schema"), "synctax.trace/1");
    nlohmann::json rest = j;
    rest.erase("whatif");
    EXPECT_EQ(rest, toJson(report));

    const nlohmann::json& x = j.at("whatif");
    EXPECT_EQ(x.at("host_work_us"), 2500.0);
    EXPECT_TRUE(x.at("absent_reason").is_null());
    EXPECT_EQ(x.at("model"), w.model);
    EXPECT_EQ(x.at("uncertainty_pct"), w.uncertaintyPct);
    EXPECT_EQ(x.at("uncertainty"), w.uncertaintyHow);
    EXPECT_EQ(x.at("calibrated"), false); // the trace alone: the profiler's cost assumed
    EXPECT_EQ(x.at("calibration").at("host_scale"), loop.calibration.hostScale);
    EXPECT_EQ(x.at("calibration").at("gpu_gap_us"), loop.calibration.gpuGapUs);
    EXPECT_EQ(x.at("calibration").at("gpu_scale"), loop.calibration.gpuScale);
    EXPECT_EQ(x.at("calibration").at("how"), loop.calibration.how);
    EXPECT_EQ(x.at("sync_us"), loop.costs.syncUs);
    EXPECT_EQ(x.at("launches_per_step"), loop.base.ops.size());
    EXPECT_EQ(x.at("recorded_syncs_per_step"), 1.0); // tiny_mlp-item: one .item() a step (the traces' README)

    const nlohmann::json& rows = x.at("rows");
    ASSERT_EQ(rows.size(), w.rows.size());
    ASSERT_EQ(rows.size(), styleCatalog().size() + 1);
    EXPECT_EQ(rows[0].at("style"), "as_recorded");
    double noneMs = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const nlohmann::json& r = rows[i];
        EXPECT_EQ(r.at("style"), w.rows[i].style);
        EXPECT_EQ(r.at("step_ms"), w.rows[i].stepMs);
        EXPECT_EQ(r.at("tax_pct"), w.rows[i].taxPct);
        EXPECT_EQ(r.at("tax_low_pct"), w.rows[i].taxLowPct);
        EXPECT_EQ(r.at("tax_high_pct"), w.rows[i].taxHighPct);
        EXPECT_LE(w.rows[i].taxLowPct, w.rows[i].taxPct);
        EXPECT_GE(w.rows[i].taxHighPct, w.rows[i].taxPct);
        if (i == 0)
            continue;
        const StyleInfo& style = styleCatalog()[i - 1];
        EXPECT_EQ(r.at("style"), style.name);
        if (style.takesN())
            EXPECT_EQ(r.at("n"), style.defaultN) << style.name;
        else
            EXPECT_TRUE(r.at("n").is_null()) << style.name;
        if (style.name == "none")
            noneMs = r.at("step_ms").get<double>();
    }
    ASSERT_GT(noneMs, 0);
    for (const nlohmann::json& r : rows)
        EXPECT_NEAR(r.at("tax_pct").get<double>(), (r.at("step_ms").get<double>() / noneMs - 1) * 100, 1e-9);
}

TEST(TraceSummaryWhatIf, AbsentWithItsReason)
{
    // No events at all: analyseTrace gives one window with no launch, which the what-if cannot replay.
    const KinetoTrace empty;
    const TraceReport report = analyseTrace(empty);
    for (const TraceReport& r : { report, TraceReport {} }) {
        const ImportedLoop loop = importedLoop(empty, r, {});
        ASSERT_FALSE(loop.available);
        ASSERT_FALSE(loop.reason.empty());
        const nlohmann::json x = toJson(r, loop, whatIf(loop, 1000)).at("whatif");
        EXPECT_EQ(x.at("absent_reason"), loop.reason);
        EXPECT_EQ(x.at("host_work_us"), 1000.0);
        EXPECT_TRUE(x.at("rows").empty());
        EXPECT_TRUE(x.at("model").is_null());
        EXPECT_TRUE(x.at("uncertainty_pct").is_null());
        EXPECT_TRUE(x.at("calibration").is_null());
    }
}
