#pragma once

#include "core/config/configerror.h"
#include "core/probe/probefollow.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace synctax {

// One line of steps.jsonl or blocks.jsonl, one row of phases.csv, or a whole JSON file of a probe
// folder (docs/probe-folder.md), as the follower reads them. What is off comes back in `error`,
// located in the text (a line's text: line 1) and said as "expected …, found …"; the caller names
// the file and, for a line, its number.
std::optional<ProbeStep> parseProbeStep(const std::string& line, ConfigError& error);
std::optional<ProbeBlock> parseProbeBlock(const std::string& line, ConfigError& error);
// A phases.csv line: its F, B, O row; nothing and no error for a comment or the header.
std::optional<std::array<double, 3>> parseProbePhasesRow(const std::string& line, ConfigError& error);

// A whole file's text as JSON, or where it stops being JSON.
std::optional<nlohmann::json> parseProbeJson(const std::string& text, ConfigError& error);
std::optional<ProbeStart> parseProbeStart(const std::string& text, ConfigError& error);
std::optional<std::vector<ProbeSite>> parseProbeSites(const std::string& text, ConfigError& error);
std::optional<ProbeEnd> parseProbeEnd(const std::string& text, ConfigError& error);
// ab.json: the A/B's estimates (the added style's and its A/A control's), drift, windows.
std::optional<ProbeAb> parseProbeAb(const std::string& text, ConfigError& error);

} // namespace synctax
