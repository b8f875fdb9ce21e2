#pragma once

#include <string>
#include <utility>
#include <vector>

namespace synctax {

// Name and YAML text of every file in resources/presets/, generated at build time.
const std::vector<std::pair<std::string, std::string>>& embeddedPresets();

} // namespace synctax
