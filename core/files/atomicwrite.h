#pragma once

// The full header, not json_fwd.hpp: a LibTorch that bundles its own json.hpp must not be
// mixed with another version's forward declarations.
#include <nlohmann/json.hpp>

#include <functional>
#include <ostream>
#include <string>

namespace synctax {

// Writes through a temporary file and a rename, so a reader never sees half a file. Throws
// std::runtime_error naming the file when it cannot be written.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);
void writeJsonFileAtomically(const std::string& path, const nlohmann::json& json);

} // namespace synctax
