// The curves of a host-work sweep, from the hand-made run of tests/core/sweepresult.h.
#include "core/analysis/sweepcurve.h"
#include "tests/core/sweepresult.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(SweepCurves, OneCurvePerStyleButTheBaselineAndTheControls)
{
    const std::vector<SweepCurve> curves = sweepCurves(sweepResult(true));
    ASSERT_EQ(curves.size(), 2u);
    EXPECT_EQ(curves[0].style, "item");
    EXPECT_EQ(curves[1].style, "progress_bar");
    for (const SweepCurve& c : curves) {
        EXPECT_EQ(c.model, "tiny_mlp");
        EXPECT_EQ(c.mode, "eager");
        EXPECT_EQ(c.batch, 4);
        ASSERT_EQ(c.points.size(), 3u);
    }
    const std::vector<SweepSample>& samples = sweepSamples();
    for (size_t i = 0; i < samples.size(); ++i) {
        const SweepPoint& item = curves[0].points[i];
        EXPECT_EQ(item.hostWorkUs, samples[i].hostWorkUs);
        ASSERT_TRUE(item.measuredPct);
        EXPECT_EQ(item.measuredPct->estimate, samples[i].item.estimate);
        EXPECT_EQ(item.measuredPct->high, samples[i].item.high);
        ASSERT_TRUE(item.predictedPct);
        EXPECT_EQ(*item.predictedPct, samples[i].itemPredicted);
    }
}

TEST(SweepCurves, ACpuRunHasPointsWithoutPredictionsAndAFailedCellNoMeasurement)
{
    ExperimentResult r = sweepResult(false);
    r.cells[6].ok = false; // item at 5 ms
    const std::vector<SweepCurve> curves = sweepCurves(r);
    ASSERT_EQ(curves.size(), 2u);
    EXPECT_FALSE(curves[0].points[0].predictedPct);
    EXPECT_FALSE(curves[0].points[1].ok);
    EXPECT_FALSE(curves[0].points[1].measuredPct);
}

TEST(SweepCurves, OnlyModelsThatSweepHostWorkHaveCurves)
{
    ExperimentResult r = sweepResult(true);
    r.config.sweep.reset();
    EXPECT_TRUE(sweepCurves(r).empty());
    // The model's own sweep counts as the top-level one does.
    r.config.models[0].sweep = SweepSpec { { 0, 5000, 15000 }, {} };
    EXPECT_EQ(sweepCurves(r).size(), 2u);
    r.config.models[0].sweep = SweepSpec { {}, { 4, 8 } };
    EXPECT_TRUE(sweepCurves(r).empty());
}
