#pragma once

#include <cstdint>
#include <string>

namespace synctax {

struct SimulateOptions {
    std::string config; // a simulation file or a built-in simulation's name
    std::string outDir; // when set: steps.csv (as `run` writes it) and simulation.csv
    // A results.json instead of a simulation: each measured cell beside its prediction.
};

struct SweepOptions {
    std::string outPath; // the CSV; stdout when empty
    double dMs = 0.2;
    double lUs = 8;
    int64_t k = 40;
    int64_t queueCapacity = 1021;
    int64_t stepsPerBlock = 50;
};

// Exit codes: 0 ok, 2 bad input.
int simulateCommand(const SimulateOptions& options);
int sweepCommand(const SweepOptions& options);

// print-config of a built-in simulation: its YAML, a starting point for a simulation file of one's
// own. Presets keep their names: print-config NAME prints a simulation only where no preset is NAME.
bool printConfigFindsSimulation(const std::string& name);
int printSimulationCommand(const std::string& name);

} // namespace synctax
