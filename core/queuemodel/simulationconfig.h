#pragma once

#include "core/config/configerror.h"
#include "core/config/experimentconfig.h"
#include "core/queuemodel/simulator.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// One loop to simulate: the quantities a real run measures, chosen by hand.
struct SimulationScenario {
    std::string name;
    std::string description;
    QueueModel model;
};

// A simulation file (`synctax_simulation: 1`): scenarios x styles, run by `synctax-run simulate`.
// It is not an experiment config: nothing is measured, so it names loops by their D, G, H, L, K
// and Q rather than by model, and it needs no device.
struct SimulationConfig {
    std::string name = "simulation";
    std::string description;
    int64_t stepsPerBlock = 50;
    int64_t blocks = 5;
    std::vector<StyleSpec> styles; // the baseline first, added when missing
    std::vector<SimulationScenario> scenarios;
};

struct SimulationLoadResult {
    std::optional<SimulationConfig> config; // set only when there are no errors
    std::vector<ConfigError> errors;
};

// Strict, like loadConfigText(): every unknown key, wrong type or out-of-range value is reported
// with its line and column.
SimulationLoadResult loadSimulationText(const std::string& text, const std::string& sourceName);
SimulationLoadResult loadSimulationFile(const std::string& path);

// The simulations compiled in from resources/simulations/, by file name without .yaml.
std::vector<std::string> builtinSimulationNames();
std::optional<std::string> builtinSimulationText(const std::string& name);

// A file path, or else a built-in simulation's name.
SimulationLoadResult loadSimulationOrBuiltin(const std::string& nameOrPath);

} // namespace synctax
