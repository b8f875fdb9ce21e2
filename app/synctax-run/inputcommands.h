#pragma once

#include "core/config/experimentconfig.h"

#include <optional>
#include <string>

namespace synctax {

// The config (a file or a preset's name), or nothing after every error was printed to stderr.
std::optional<ExperimentConfig> loadOrReport(const std::string& nameOrPath);

// The commands that read inputs and need no LibTorch: they run in synctax-run itself.
int validateCommand(const std::string& config);
int presetsCommand();
int printConfigCommand(const std::string& preset);
int diffCommand(const std::string& a, const std::string& b);

} // namespace synctax
