#pragma once

#include "core/analysis/experimentresult.h"
#include "core/files/atomicwrite.h"

// The full header, not json_fwd.hpp: a LibTorch that bundles its own json.hpp must not be
// mixed with another version's forward declarations.
#include <nlohmann/json.hpp>

#include <functional>
#include <ostream>
#include <string>

namespace synctax {

inline constexpr const char* resultsSchema = "synctax.results/1";

nlohmann::json toJson(const ExperimentConfig& config);
nlohmann::json toJson(const ExperimentResult& result);

} // namespace synctax
