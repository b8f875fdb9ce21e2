// What a simulation file's loader says about inputs that are not simulation files.
#include "core/queuemodel/simulationconfig.h"

#include <gtest/gtest.h>

using namespace synctax;

TEST(SimulationConfig, AnExperimentConfigIsToldApart)
{
    const auto r = loadSimulationText("synctax: 1\nname: x\nmodels: [tiny_mlp]\nstyles: [item]\n", "c.yaml");
    ASSERT_EQ(r.errors.size(), 1u) << formatErrors(r.errors);
    EXPECT_EQ(r.errors[0].format(),
        "c.yaml:1:1: this is an experiment config (synctax: 1), not a simulation file: run it with 'synctax-run run' "
        "(or check it with 'synctax-run validate')");
}

TEST(SimulationConfig, ADirectoryIsNamedAsOne)
{
    const std::string dir = SYNCTAX_TEST_DATA "/configs";
    const auto r = loadSimulationOrBuiltin(dir);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].format(),
        dir + ": is a directory; expected a simulation file (YAML) or a built-in simulation's name");
}
