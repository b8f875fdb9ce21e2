#pragma once

#include "core/config/experimentconfig.h"
#include "core/config/yamlchecker.h"

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace synctax {

// The keys of a `torchscript:` model entry, as the model mapping's reader collects them.
struct TorchScriptNodes {
    std::optional<YAML::Node> path; // the value of torchscript
    std::optional<YAML::Node> input, inputs, target; // the values
    std::optional<YAML::Node> builtInSize; // the key of width, input_size or classes, where written
};

// A TorchScript model's spec from its entry: the file resolved against `baseDir` (the config file's
// folder) and, where `checkFile`, present; its inputs and target checked. Errors go to `checker`,
// located at each key.
std::optional<TorchScriptSpec> readTorchScriptEntry(YamlChecker& checker, const YAML::Node& entry,
    const TorchScriptNodes& nodes, const std::string& baseDir, bool checkFile);

// The name a TorchScript model goes by when its entry gives none: the file's name without .pt/.pth.
std::string torchScriptDisplayName(const std::string& path);

// The folder a config's relative paths start from: the folder of `source` where it names a file
// (a config loaded from disk), else the working directory (a preset, the app's text).
std::string configBaseDir(const std::string& source);

} // namespace synctax
