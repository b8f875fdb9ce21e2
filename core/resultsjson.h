#pragma once

#include "core/experimentresult.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace synctax {

inline constexpr const char* resultsSchema = "synctax.results/1";

nlohmann::json toJson(const ExperimentConfig& config);
nlohmann::json toJson(const ExperimentResult& result);

// Writes through a temporary file and a rename, so a reader never sees half a file.
void writeJsonFileAtomically(const std::string& path, const nlohmann::json& json);

} // namespace synctax
