#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace synctax {

// YAML files compiled into the binaries by cmake/EmbedYaml.cmake: name (the file's stem) and text,
// sorted by name.
using EmbeddedFiles = std::vector<std::pair<std::string, std::string>>;
const EmbeddedFiles& embeddedPresets(); // resources/presets/
const EmbeddedFiles& embeddedSimulations(); // resources/simulations/

std::vector<std::string> embeddedNames(const EmbeddedFiles& files);
std::optional<std::string> embeddedText(const EmbeddedFiles& files, const std::string& name);

} // namespace synctax
