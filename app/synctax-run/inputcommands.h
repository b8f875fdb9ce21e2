#pragma once

#include "core/config/configerror.h"
#include "core/config/experimentconfig.h"

#include <functional>
#include <vector>

#include "core/config/experimentconfig.h"

#include <optional>
#include <string>

namespace synctax {

// The config (a file or a preset's name), or nothing after every error was printed to stderr.
std::optional<ExperimentConfig> loadOrReport(const std::string& nameOrPath);

// The commands that read inputs and need no LibTorch: they run in synctax-run itself.
// Checks a config; `checkModels`, where given (the engine's), also loads and tries its torchscript
// models. Without it a config that has one needs the engine: `needsEngine` is then set.
int validateCommand(const std::string& config,
    const std::function<std::vector<ConfigError>(const ExperimentConfig&)>& checkModels, bool* needsEngine = nullptr);
int presetsCommand();
int printConfigCommand(const std::string& preset);
int diffCommand(const std::string& a, const std::string& b);
// The table of a results file or a run's folder (a killed run's rebuilt from its journal), its notes on stderr.
int showCommand(const std::string& path);

} // namespace synctax
