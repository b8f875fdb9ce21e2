// The sweep key and its grid: which groups a config's sweep makes, in which order. Expected grids
// are written out by hand from the rule (each model in turn; host work outer, batch inner, each in
// the order listed; a model's own sweep replaces the top-level one).
#include "core/config/configloader.h"
#include "core/config/sweepgrid.h"

#include <gtest/gtest.h>

#include <utility>

using namespace synctax;

namespace {

ExperimentConfig load(const std::string& text)
{
    const ConfigLoadResult r = loadConfigText(text, "sweep.yaml");
    EXPECT_TRUE(r.config) << formatErrors(r.errors);
    return r.config.value_or(ExperimentConfig {});
}

struct Point {
    std::string model;
    int64_t hostWorkUs;
    int64_t batch;
    bool operator==(const Point& o) const { return model == o.model && hostWorkUs == o.hostWorkUs && batch == o.batch; }
};

std::ostream& operator<<(std::ostream& out, const Point& p)
{
    return out << p.model << " h=" << p.hostWorkUs << " b=" << p.batch;
}

std::vector<Point> points(const ExperimentConfig& config)
{
    std::vector<Point> out;
    for (const ModelSpec& m : sweepGrid(config)) {
        EXPECT_FALSE(m.sweep) << m.name << ": a grid's entry keeps no sweep";
        out.push_back({ m.name, m.hostWorkUs, m.batch });
    }
    return out;
}

} // namespace

TEST(SweepGrid, HostWorkOuterBatchInnerInTheListedOrder)
{
    const ExperimentConfig c = load("synctax: 1\n"
                                    "sweep: {host_work_us: [15000, 0, 5000], batch: [64, 32]}\n"
                                    "models: [tiny_mlp]\n"
                                    "styles: [item]\n");
    ASSERT_TRUE(c.sweep);
    EXPECT_EQ(c.sweep->hostWorkUs, (std::vector<int64_t> { 15000, 0, 5000 }));
    EXPECT_EQ(points(c),
        (std::vector<Point> { { "tiny_mlp", 15000, 64 }, { "tiny_mlp", 15000, 32 }, { "tiny_mlp", 0, 64 },
            { "tiny_mlp", 0, 32 }, { "tiny_mlp", 5000, 64 }, { "tiny_mlp", 5000, 32 } }));
    EXPECT_TRUE(sweptKeys(c).hostWork);
    EXPECT_TRUE(sweptKeys(c).batch);
}

TEST(SweepGrid, AModelsOwnSweepReplacesTheTopLevelOne)
{
    // small_resnet sweeps batch only: the top-level host works do not apply to it, its own
    // host_work_us does; tiny_mlp takes the top-level sweep and its own batch (4).
    const ExperimentConfig c = load("synctax: 1\n"
                                    "host_work_us: 100\n"
                                    "sweep: {host_work_us: [0, 2000]}\n"
                                    "models:\n"
                                    "  - {name: tiny_mlp, batch: 4}\n"
                                    "  - name: small_resnet\n"
                                    "    host_work_us: 300\n"
                                    "    sweep: {batch: [8, 2]}\n"
                                    "styles: [item]\n");
    EXPECT_EQ(points(c),
        (std::vector<Point> {
            { "tiny_mlp", 0, 4 }, { "tiny_mlp", 2000, 4 }, { "small_resnet", 300, 8 }, { "small_resnet", 300, 2 } }));
}

TEST(SweepGrid, WithoutASweepEachModelIsOneGroupAtItsOwnHostWorkAndBatch)
{
    // The catalog's batch for tiny_mlp is 256 (modelcatalog.cpp); the top-level host work applies.
    const ExperimentConfig c = load("synctax: 1\n"
                                    "host_work_us: 750\n"
                                    "models: [tiny_mlp, {name: small_resnet, batch: 3, host_work_us: 0}]\n"
                                    "styles: [item]\n");
    EXPECT_EQ(points(c), (std::vector<Point> { { "tiny_mlp", 750, 256 }, { "small_resnet", 0, 3 } }));
    EXPECT_FALSE(sweptKeys(c).any());
}

TEST(SweepGrid, AModelWithoutASweepBesideOneThatHasIsOneGroup)
{
    const ExperimentConfig c = load("synctax: 1\n"
                                    "models:\n"
                                    "  - {name: tiny_mlp, batch: 4, sweep: {host_work_us: [0, 500]}}\n"
                                    "  - {name: small_resnet, batch: 2}\n"
                                    "styles: [item]\n");
    EXPECT_EQ(
        points(c), (std::vector<Point> { { "tiny_mlp", 0, 4 }, { "tiny_mlp", 500, 4 }, { "small_resnet", 0, 2 } }));
    EXPECT_TRUE(sweptKeys(c).hostWork);
    EXPECT_FALSE(sweptKeys(c).batch);
}

TEST(SweepGrid, QuickRunsShrinkTheBatchesOfASweepWithoutRepeatingOne)
{
    ExperimentConfig c = load("synctax: 1\n"
                              "sweep: {host_work_us: [0, 5000], batch: [2, 64, 32]}\n"
                              "models: [tiny_mlp]\n"
                              "styles: [item]\n");
    applyQuick(c);
    ASSERT_TRUE(c.sweep);
    // Every batch becomes at most 4 (applyQuick's tiny batch): 2 stays, 64 and 32 both become 4.
    EXPECT_EQ(c.sweep->batch, (std::vector<int64_t> { 2, 4 }));
    EXPECT_EQ(c.sweep->hostWorkUs, (std::vector<int64_t> { 0, 5000 }));
}

TEST(SweepGrid, GroupsOfTheSameModelAndModeDifferByTheirPoint)
{
    struct Record {
        std::string model;
        std::string mode;
        int64_t hostWorkUs;
        int64_t batch;
    };
    const Record a { "resnet50", "eager", 0, 64 };
    EXPECT_TRUE(sameGroup(a, Record { "resnet50", "eager", 0, 64 }));
    EXPECT_FALSE(sameGroup(a, Record { "resnet50", "eager", 15000, 64 }));
    EXPECT_FALSE(sameGroup(a, Record { "resnet50", "eager", 0, 32 }));
    EXPECT_FALSE(sameGroup(a, Record { "resnet50", "cuda_graph", 0, 64 }));
}
