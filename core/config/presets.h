#pragma once

#include <optional>
#include <string>
#include <vector>

namespace synctax {

std::vector<std::string> presetNames();
std::optional<std::string> presetText(const std::string& name);

// The preset a plain `synctax-run run` or `make run` uses on this machine.
std::string defaultPresetName(bool cudaAvailable);

} // namespace synctax
