#pragma once

#include "core/config/configerror.h"
#include "core/trace/probefollow.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// A folder that `python3 -m synctax_probe` wrote (docs/probe-folder.md): the loop's short profiled
// capture, its phases timed without the profiler in blocks of steps, and the A/B it measured (what
// ab.json says, the ProbeAb it is; empty where the probe ran no A/B).
struct ProbeFolder : ProbeAb {
    std::string dir;
    std::string script; // the user's script, as run
    std::string tracePath; // the profiled capture; empty where none was written
    std::vector<std::array<double, 3>> phasesMs; // F, B, O per block (phases.csv)
    bool ended = false; // end.json is there: the job finished (or stopped and said so)
    std::optional<double> probeUsPerStep; // the probe's own time after each optimizer step (end.json)
    std::optional<double> writerUsPerStep; // its writer thread's CPU time per step (end.json)
    std::vector<std::string> notes; // what is missing or odd, each said once
};

struct ProbeFolderRead {
    std::optional<ProbeFolder> folder;
    std::vector<ConfigError> errors; // located: the file, and where in it
};

bool isProbeFolder(const std::string& dir); // a folder holding probe.json
ProbeFolderRead readProbeFolder(const std::string& dir);

struct WhatIf;
// The A/B the probe measured in the loop, beside the what-if's prediction of the same style (where
// given), the tax over time, the drift check and the folder's notes: text, 80 columns.
std::string formatProbeAnswer(const ProbeFolder& folder, const WhatIf* whatIf);

} // namespace synctax
