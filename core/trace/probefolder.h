#pragma once

#include "core/config/configerror.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// A paired estimate the probe measured in the user's own loop (ab.json): a style's step time against
// the loop as it is, in percent, with its bootstrap 95% interval.
struct ProbeEstimate {
    double pct = 0;
    double ciLow = 0;
    double ciHigh = 0;
    double stepMs = 0;
    bool significant = false;
};

// The tax over one window of rounds, in order: how the measured answer moved over the run.
struct ProbeWindow {
    int firstRound = 0;
    int rounds = 0;
    std::optional<ProbeEstimate> item;
};

// A folder that `python3 -m synctax_probe` wrote (docs/probe-folder.md): the loop's short profiled
// capture, its phases timed without the profiler in blocks of steps, and the A/B it measured.
struct ProbeFolder {
    std::string dir;
    std::string script; // the user's script, as run
    std::string tracePath; // the profiled capture; empty where none was written
    std::vector<std::array<double, 3>> phasesMs; // F, B, O per block (phases.csv)
    int blockSteps = 0;
    std::string ab; // what the A/B added ("item"); empty: no A/B ran
    std::optional<ProbeEstimate> item; // the A/B's answer
    std::optional<ProbeEstimate> control; // its A/A control: the noise floor
    int rounds = 0;
    bool driftFlagged = false;
    double driftPct = 0;
    // The added style's tax in each half of the rounds; flagged when their intervals do not meet.
    std::optional<ProbeEstimate> taxFirstHalf;
    std::optional<ProbeEstimate> taxSecondHalf;
    bool taxDriftFlagged = false;
    std::vector<ProbeWindow> windows;
    bool ended = false; // end.json is there: the job finished (or stopped and said so)
    std::optional<double> baselineStepMs; // the A/B's `none` step (ab.json)
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
