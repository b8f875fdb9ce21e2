// The catalog is the one description of every logging style: these check that each row is whole,
// so that a row added without the rest fails here rather than in a run.
#include "core/config/experimentconfig.h"
#include "core/config/stylecatalog.h"

#include <gtest/gtest.h>

#include <set>

using namespace synctax;

TEST(StyleCatalog, StartsWithTheBaselineAndNamesEachStyleOnce)
{
    const auto& catalog = styleCatalog();
    ASSERT_FALSE(catalog.empty());
    EXPECT_EQ(catalog.front().name, baselineStyle()); // the charts and tables rank the rest after it
    std::set<std::string> names;
    for (const StyleInfo& style : catalog) {
        EXPECT_FALSE(style.name.empty());
        EXPECT_TRUE(names.insert(style.name).second) << style.name << " is listed twice";
        EXPECT_NE(style.name, aaControlStyle());
        EXPECT_NE(style.name, observerControlStyle());
        EXPECT_EQ(findStyle(style.name), &style);
    }
    EXPECT_EQ(findStyle("tensorboard"), nullptr);
}

TEST(StyleCatalog, EveryStyleHasALabelAndTakesNExactlyWhenItsCadenceIsEveryN)
{
    for (const StyleInfo& style : styleCatalog()) {
        EXPECT_FALSE(style.summary.empty()) << style.name; // the config panel's and the tables' tooltip
        EXPECT_EQ(style.takesN(), style.defaultN > 0) << style.name;
    }
}

// The simulator charges a read its round trips: a style that reads for nothing is a row left
// half written, as is a style that costs the simulator nothing and so predicts the baseline.
TEST(StyleCatalog, EveryStyleButTheBaselineHasASimulatedCost)
{
    for (const StyleInfo& style : styleCatalog()) {
        const SimulatedCost& cost = style.cost;
        if (style.cadence != ReadCadence::Never)
            EXPECT_GT(cost.roundTripsPerRead, 0) << style.name;
        const bool costsSomething
            = style.cadence != ReadCadence::Never || cost.extraLaunches > 0 || cost.hostWork != HostWork::None;
        EXPECT_EQ(costsSomething, style.name != baselineStyle()) << style.name;
    }
}

TEST(StyleCatalog, SyncPointsFollowTheCadence)
{
    const auto syncSteps = [](const std::string& name, int64_t n) {
        std::vector<int64_t> steps;
        for (int64_t step = 0; step < 12; ++step)
            if (syncsAfterStep(StyleSpec { name, n }, step, 12))
                steps.push_back(step);
        return steps;
    };
    EXPECT_EQ(syncSteps("item", 0).size(), 12u);
    EXPECT_EQ(syncSteps("item_every_n", 5), (std::vector<int64_t> { 4, 9 }));
    EXPECT_EQ(syncSteps("progress_bar_postfix_every_n", 4), (std::vector<int64_t> { 3, 7, 11 }));
    EXPECT_EQ(syncSteps("gpu_accumulate", 0), (std::vector<int64_t> { 11 }));
    EXPECT_TRUE(syncSteps("none", 0).empty());
    EXPECT_TRUE(syncSteps("progress_bar", 0).empty());
    EXPECT_TRUE(syncSteps("deferred_async", 0).empty());
    EXPECT_TRUE(syncSteps("aa_control", 0).empty()); // a copy of the baseline, outside the catalog
}
