#pragma once

#include "core/analysis/experimentresult.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace synctax {

// A group's captured replay in a results file (docs/results-schema.md, "replay"): the calibration,
// the measured costs and the calibrated step's launches as [issue_us, host_us, gpu_us, stream].
nlohmann::json replayToJson(const CapturedReplay& replay);

// Reads it back; nullopt with `error` ("/step/ops/3: expected 4 numbers") when it is malformed.
std::optional<CapturedReplay> replayFromJson(const nlohmann::json& j, std::string& error);

} // namespace synctax
