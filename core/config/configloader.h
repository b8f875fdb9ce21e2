#pragma once

#include "core/config/configerror.h"
#include "core/config/experimentconfig.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

struct ConfigLoadResult {
    std::optional<ExperimentConfig> config; // set only when there are no errors
    std::vector<ConfigError> errors;
};

// Strict YAML loading: unknown or duplicate keys, wrong types, out-of-range values and unknown
// model, style or mode names are all reported at once, each with its line and column.
// Whether a torchscript model's file must exist: not for a config read back from results, which may
// be opened on a machine without the user's module.
enum class ModelFiles { Checked, NotChecked };

ConfigLoadResult loadConfigText(
    const std::string& text, const std::string& sourceName, ModelFiles files = ModelFiles::Checked);
ConfigLoadResult loadConfigFile(const std::string& path);

// A preset name or a file path: presets win only when no such file exists.
ConfigLoadResult loadConfigOrPreset(const std::string& nameOrPath);

} // namespace synctax
