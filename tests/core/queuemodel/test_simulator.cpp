#include "core/config/stylecatalog.h"
#include "core/queuemodel/prediction.h"
#include "core/queuemodel/simulationconfig.h"
#include "core/queuemodel/simulator.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace synctax;

namespace {

const StyleSpec none { "none", 0 };
const StyleSpec item { "item", 0 };

// The tax of `item` per step, in ms, over one block of 50 steps (so the block's fill is priced in).
struct Tax {
    double baselineMs;
    double itemMs;
    double perStepMs() const { return itemMs - baselineMs; }
    double pct() const { return (itemMs / baselineMs - 1) * 100; }
};

Tax itemTax(const QueueModel& m, int64_t steps = 50)
{
    const auto s = simulateStyles(m, { none, item }, steps, 1);
    return { s[0].msPerStep, s[1].msPerStep };
}

QueueModel model(double dMs, double gMs, double hUs, int64_t k = 20)
{
    QueueModel m;
    m.dMs = dMs;
    m.gMs = gMs;
    m.hUs = hUs;
    m.lUs = 8;
    m.k = k;
    return m;
}

std::vector<StepRecord> records(const QueueModel& m, const StyleSpec& style, int64_t steps = 30)
{
    std::vector<StepRecord> out;
    simulateStyles(m, { none, style }, steps, 3, &out);
    return out;
}

bool sameRecords(const std::vector<StepRecord>& a, const std::vector<StepRecord>& b)
{
    return a.size() == b.size()
        && std::equal(a.begin(), a.end(), b.begin(), [](const StepRecord& x, const StepRecord& y) {
               return x.cell == y.cell && x.round == y.round && x.step == y.step && x.startNs == y.startNs
                   && x.dispatchedNs == y.dispatchedNs && x.loggedNs == y.loggedNs && x.gpuDoneNs == y.gpuDoneNs
                   && x.queueSteps == y.queueSteps;
           });
}

} // namespace

// D + H >> G: the GPU keeps up and the queue is nearly empty, so a sync costs the round trip L
// (plus the last launch's G/K, which the host would otherwise have hidden).
TEST(Simulator, DispatchBoundTaxIsTheRoundTrip)
{
    const QueueModel m = model(0.5, 0.02, 0, 20);
    const Tax tax = itemTax(m);
    EXPECT_NEAR(tax.baselineMs, 0.5, 0.01);
    const double lMs = m.lUs * 1e-3;
    EXPECT_GE(tax.perStepMs(), lMs - 1e-6);
    EXPECT_LE(tax.perStepMs(), lMs + m.gMs / double(m.k) + 1e-6);
    EXPECT_NEAR(tax.pct(), 100 * lMs / 0.5, 0.5);
}

// Kernels are not spread evenly: what is still queued when the host has dispatched (the tail) is
// what a dispatch-bound sync waits for, and the baseline's lag shows it.
TEST(Simulator, DispatchBoundTaxGrowsWithTheGpuTail)
{
    QueueModel m = model(0.5, 0.3, 0, 20);
    m.tailMs = 0.2;
    std::vector<StepRecord> out;
    const auto s = simulateStyles(m, { none, item }, 50, 1, &out);
    EXPECT_NEAR(s[1].msPerStep - s[0].msPerStep, m.tailMs + m.lUs * 1e-3, 0.01);
    EXPECT_NEAR(out.at(10).lagMs, m.tailMs, 0.01); // the baseline's lag, as a run measures it
    RegimeMeasurement r;
    r.available = true;
    r.dMs = m.dMs;
    r.gMs = m.gMs;
    r.lUs = m.lUs;
    r.k = m.k;
    EXPECT_NEAR(predictOverhead(r, item, 50, 0.2).overheadPct, s[1].overheadPct, 1e-9);
    r.queueLimited = true; // then the lag is the host waiting, not a tail
    EXPECT_NEAR(predictOverhead(r, item, 50, 0.2).overheadPct, 100 * (m.lUs * 1e-3 + m.gMs / 20) / m.dMs, 0.5);
}

// G >> D + H: the sync waits for work that had to run anyway; the waste is the bubble while the
// host does H and dispatches the first launch again, plus L.
TEST(Simulator, GpuBoundTaxIsTheBubble)
{
    const QueueModel m = model(1, 20, 200, 100);
    const Tax tax = itemTax(m);
    EXPECT_NEAR(tax.baselineMs, 20, 0.1);
    const double bubbleMs = m.hUs * 1e-3 + m.dMs / double(m.k) + m.lUs * 1e-3;
    EXPECT_NEAR(tax.perStepMs(), bubbleMs, 0.1 * bubbleMs);
    EXPECT_LT(tax.pct(), 2.0);
}

// D + H ≈ G with most of it H: the host's work no longer overlaps the GPU's, and item nearly
// doubles the step.
TEST(Simulator, BalancedTaxIsLarge)
{
    const Tax tax = itemTax(model(0.2, 5, 5000, 50));
    EXPECT_GT(tax.pct(), 20);
    EXPECT_GT(tax.pct(), 80); // min(D + H, G) / max(D + H, G) is about 100%
    EXPECT_LT(tax.pct(), 110);
}

TEST(Simulator, StylesWithoutSyncCostOnlyTheirHostWork)
{
    const QueueModel m = model(0.2, 5, 0, 50);
    const auto s
        = simulateStyles(m, { none, { "aa_control", 0 }, { "progress_bar", 0 }, { "item_every_n", 10 } }, 50, 2);
    EXPECT_DOUBLE_EQ(s[1].overheadPct, 0.0);
    EXPECT_DOUBLE_EQ(s[1].syncsPerStep, 0.0);
    EXPECT_LT(s[2].overheadPct, 0.1); // GPU-bound: the bar's formatting hides under the GPU's work
    EXPECT_DOUBLE_EQ(s[3].syncsPerStep, 0.1);
    EXPECT_GT(s[3].overheadPct, 0.0);
}

// Each catalog row's cost reaches the simulator: its reads are priced at its cadence and every style
// but the baseline costs something, in a balanced loop where syncs, launches and host work all show.
TEST(Simulator, EveryCatalogStyleCostsWhatItsDescriptionSays)
{
    const QueueModel m = model(0.5, 0.5, 20, 20);
    const int64_t steps = 20;
    for (const StyleInfo& info : styleCatalog()) {
        const StyleSpec spec { info.name, info.defaultN };
        const auto s = simulateStyles(m, { none, spec }, steps, 2);
        int64_t reads = 0;
        for (int64_t step = 0; step < steps; ++step)
            reads += syncsAfterStep(info, spec.n, step, steps) ? 1 : 0;
        EXPECT_DOUBLE_EQ(s[1].syncsPerStep, double(reads * info.cost.roundTripsPerRead) / double(steps)) << info.name;
        if (info.name == baselineStyle())
            EXPECT_DOUBLE_EQ(s[1].overheadPct, 0.0);
        else
            EXPECT_GT(s[1].overheadPct, 0.0) << info.name;
    }
}

TEST(Simulator, QueueDepthNeverExceedsCapacity)
{
    QueueModel m = model(0.1, 10, 0, 10);
    m.queueCapacity = 16;
    Simulator simulator(m);
    std::vector<StepRecord> out;
    const SimulatedBlock b = simulator.runBlock(none, 40, StepRecord {}, &out);
    EXPECT_EQ(b.maxQueueLaunches, 16); // GPU-bound: the host runs ahead until the queue is full
    // The queue limits how far the host runs ahead: never more than Q launches, i.e. 2 steps.
    for (const auto& r : out) {
        EXPECT_LE(r.queueSteps, 3);
        EXPECT_GE(r.queueSteps, 1);
        EXPECT_GE(r.gpuDoneNs, r.dispatchedNs);
    }
    // With the big default queue the host runs far ahead instead.
    m.queueCapacity = 1021;
    std::vector<StepRecord> unbounded;
    Simulator(m).runBlock(none, 40, StepRecord {}, &unbounded);
    EXPECT_GT(unbounded.back().queueSteps, 30);
}

TEST(Simulator, RecordsAreOrderedAndComplete)
{
    const auto out = records(model(0.3, 1, 100), item);
    ASSERT_EQ(out.size(), 2u * 3u * 30u);
    for (size_t i = 0; i < out.size(); ++i) {
        const StepRecord& r = out[i];
        EXPECT_LE(r.startNs, r.dispatchedNs);
        EXPECT_LE(r.dispatchedNs, r.loggedNs);
        EXPECT_GE(r.lagMs, 0.0f);
        EXPECT_GE(r.queueSteps, 1);
        if (i > 0)
            EXPECT_LE(out[i - 1].loggedNs, r.startNs);
        if (r.cell == 1) // item waits for its step every step
            EXPECT_GE(r.loggedNs, r.gpuDoneNs);
    }
}

TEST(Simulator, SameSeedSameRecordsAndJitterChangesThem)
{
    QueueModel m = model(0.3, 1, 100);
    m.jitter = 0.2;
    const auto a = records(m, item);
    EXPECT_TRUE(sameRecords(a, records(m, item)));
    QueueModel other = m;
    other.seed = 2;
    EXPECT_FALSE(sameRecords(a, records(other, item)));
    QueueModel still = m;
    still.jitter = 0;
    EXPECT_FALSE(sameRecords(a, records(still, item)));
}

TEST(Prediction, FollowsTheRegime)
{
    RegimeMeasurement gpuBound;
    gpuBound.available = true;
    gpuBound.dMs = 1;
    gpuBound.gMs = 30;
    gpuBound.lUs = 8;
    gpuBound.k = 300;
    const Prediction p = predictOverhead(gpuBound, item, 50);
    EXPECT_EQ(p.regime, "gpu_bound");
    EXPECT_GT(p.overheadPct, 0.0);
    EXPECT_LT(p.overheadPct, 1.0);

    RegimeMeasurement balanced = gpuBound;
    balanced.gMs = 5;
    balanced.hUs = 4000;
    balanced.label = classifyRegime(balanced.dMs, balanced.gMs, balanced.hUs);
    const auto both = predictOverheads(balanced, { none, item, { "gpu_accumulate", 0 } }, 50);
    EXPECT_EQ(both[1].regime, "balanced");
    EXPECT_DOUBLE_EQ(both[0].overheadPct, 0.0);
    EXPECT_GT(both[1].overheadPct, 50.0);
    EXPECT_LT(both[2].overheadPct, 5.0); // one sync per block

    // A run with the A/A control lists the baseline twice (the control is a copy of it): the
    // copy is predicted at zero and the other styles are predicted as without it.
    const auto withControl = predictOverheads(balanced, { none, none, item }, 50);
    EXPECT_DOUBLE_EQ(withControl[0].overheadPct, 0.0);
    EXPECT_DOUBLE_EQ(withControl[1].overheadPct, 0.0);
    EXPECT_DOUBLE_EQ(withControl[2].overheadPct, both[1].overheadPct);

    RegimeMeasurement uncounted = gpuBound;
    uncounted.k = -1; // then the step is one launch
    EXPECT_GT(predictOverhead(uncounted, item, 50).overheadPct, p.overheadPct);
}

TEST(SimulationConfig, TeachRegimesShowsTheThreeRegimes)
{
    const SimulationLoadResult loaded = loadSimulationOrBuiltin("teach-regimes");
    ASSERT_TRUE(loaded.config) << formatErrors(loaded.errors);
    const SimulationConfig& c = *loaded.config;
    ASSERT_EQ(c.scenarios.size(), 3u);
    std::vector<std::string> regimes;
    std::vector<double> itemPct;
    for (const auto& s : c.scenarios) {
        regimes.push_back(classifyRegime(s.model.dMs, s.model.gMs, s.model.hUs));
        const auto sim = simulateStyles(s.model, c.styles, c.stepsPerBlock, c.blocks);
        const auto it
            = std::find_if(sim.begin(), sim.end(), [](const StyleSimulation& x) { return x.style.name == "item"; });
        ASSERT_NE(it, sim.end());
        itemPct.push_back(it->overheadPct);
    }
    EXPECT_EQ(regimes, (std::vector<std::string> { "dispatch_bound", "gpu_bound", "balanced" }));
    EXPECT_GT(itemPct[0], 2.0); // L against a short step
    EXPECT_LT(itemPct[1], 1.0); // the bubble against a long one
    EXPECT_GT(itemPct[2], 20.0); // the lost overlap
    EXPECT_GT(itemPct[2], itemPct[0]);
}

TEST(SimulationConfig, ReportsEveryErrorWithItsPlace)
{
    const std::string text = "synctax_simulation: 1\n"
                             "styles: [none, itme]\n"
                             "scenarios:\n"
                             "  - name: a\n"
                             "    d_ms: -1\n"
                             "    g_ms: 1\n"
                             "    colour: red\n";
    const SimulationLoadResult r = loadSimulationText(text, "x.yaml");
    EXPECT_FALSE(r.config);
    const std::string all = formatErrors(r.errors);
    EXPECT_NE(all.find("x.yaml:2:16: unknown style 'itme'"), std::string::npos) << all;
    EXPECT_NE(all.find("x.yaml:5:11: d_ms: -1 is out of range"), std::string::npos) << all;
    EXPECT_NE(all.find("x.yaml:7:5: unknown key 'colour'"), std::string::npos) << all;
    EXPECT_EQ(r.errors.size(), 3u) << all; // a bad d_ms is not also reported as missing

    EXPECT_FALSE(loadSimulationText("synctax: 1\n", "y.yaml").config);
    EXPECT_FALSE(loadSimulationOrBuiltin("no-such-simulation").config);
}

TEST(SimulationConfig, DefaultsApplyToScenarios)
{
    const std::string text = "synctax_simulation: 1\n"
                             "defaults: {l_us: 20, k: 7, d_ms: 0.5}\n"
                             "styles: [item]\n"
                             "scenarios:\n"
                             "  - {name: a, g_ms: 2}\n"
                             "  - {name: b, g_ms: 3, k: 9}\n";
    const SimulationLoadResult r = loadSimulationText(text, "z.yaml");
    ASSERT_TRUE(r.config) << formatErrors(r.errors);
    ASSERT_EQ(r.config->styles.size(), 2u);
    EXPECT_EQ(r.config->styles[0].name, "none");
    EXPECT_EQ(r.config->scenarios[0].model.k, 7);
    EXPECT_EQ(r.config->scenarios[1].model.k, 9);
    EXPECT_DOUBLE_EQ(r.config->scenarios[1].model.lUs, 20);
    EXPECT_DOUBLE_EQ(r.config->scenarios[0].model.dMs, 0.5);
}

// A prediction travels with its cell through results.json and shows in the runner's table.
