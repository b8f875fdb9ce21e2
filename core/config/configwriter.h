#pragma once

#include "core/config/experimentconfig.h"

#include <string>

namespace synctax {

// The config as YAML that loadConfigText() reads back to the same config: every field written
// out, models with their sizes, so a saved file does not depend on later changes to defaults.
std::string toYaml(const ExperimentConfig& config);

} // namespace synctax
