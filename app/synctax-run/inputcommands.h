#pragma once

#include "core/config/configerror.h"
#include "core/config/experimentconfig.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// The config (a file or a preset's name), or nothing after every error was printed to stderr.
std::optional<ExperimentConfig> loadOrReport(const std::string& nameOrPath);

struct ValidateOptions {
    std::string config; // a file or a preset's name
};

struct PrintConfigOptions {
    std::string name; // a preset's, else a built-in simulation's (printConfigFindsSimulation)
};

struct DiffOptions {
    std::string a, b; // results files (results.json, .json.gz) or run folders
};

struct ShowOptions {
    std::string results; // a results file, a run's folder or its journal.jsonl
};

// The commands that read inputs and need no LibTorch: they run in synctax-run itself.
// Checks a config; `checkModels`, where given (the engine's), also loads and tries its torchscript
// models. Without it a config that has one needs the engine: `needsEngine` is then set.
int validateCommand(const ValidateOptions& options,
    const std::function<std::vector<ConfigError>(const ExperimentConfig&)>& checkModels, bool* needsEngine = nullptr);
int presetsCommand();
int printConfigCommand(const PrintConfigOptions& options); // a preset's YAML
int diffCommand(const DiffOptions& options);
// The table of a results file or a run's folder (a killed run's rebuilt from its journal), its notes on stderr.
int showCommand(const ShowOptions& options);

} // namespace synctax
