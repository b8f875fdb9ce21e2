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
ConfigLoadResult loadConfigText(const std::string& text, const std::string& sourceName);
ConfigLoadResult loadConfigFile(const std::string& path);

// A preset name or a file path: presets win only when no such file exists.
ConfigLoadResult loadConfigOrPreset(const std::string& nameOrPath);

} // namespace synctax
