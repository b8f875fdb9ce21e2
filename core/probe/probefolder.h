#pragma once

#include "core/config/configerror.h"
#include "core/probe/probefollow.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
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
    std::optional<bool> cudaAvailable; // probe.json's: false, the A/B measured Python calls alone
    std::string tracePath; // the profiled capture; empty where none was written
    std::vector<std::array<double, 3>> phasesMs; // F, B, O per block (phases.csv)
    // Each calibration block's first steps (at most kBlockFirstSteps), F, B, O in ms with the loop's
    // own sync waits taken out (steps.jsonl), where an A/B ran: its blocks start from a GPU the probe
    // drained (queueFreePhases).
    std::vector<std::vector<std::array<double, 3>>> blockFirstStepsMs;
    bool ended = false; // end.json is there: the job finished (or stopped and said so)
    std::optional<double> probeUsPerStep; // the probe's own time after each optimizer step (end.json)
    std::optional<double> writerUsPerStep; // its writer thread's CPU time per step (end.json)
    std::optional<ProbeEnd> end; // end.json as read; empty where there is none, or it does not read
    std::vector<std::string> notes; // what is missing or odd, each said once
};

struct ProbeFolderRead {
    std::optional<ProbeFolder> folder;
    std::vector<ConfigError> errors; // located: the file, and where in it
};

bool isProbeFolder(const std::string& dir); // a folder holding probe.json
// Why a folder that is not a probe run folder is none: what a run folder holds, and which of its
// files this one has without probe.json (an empty folder, another tool's, a run cut off before its
// start was written). Empty for a probe run folder or a path that is no folder.
std::string notARunFolder(const std::string& dir);
ProbeFolderRead readProbeFolder(const std::string& dir);

inline constexpr int kBlockFirstSteps = 32;

// Each calibration block's first steps (at most kBlockFirstSteps), F, B, O in ms with the loop's own
// sync waits taken out, blocks in the order they come: gathered step by step from steps.jsonl, by
// readProbeFolder and by the app's follower alike.
class BlockFirstSteps {
public:
    void add(const ProbeStep& step); // a calibration block's step; any other is passed over
    const std::vector<std::vector<std::array<double, 3>>>& ms() const { return m_blocks; }
    std::vector<std::vector<std::array<double, 3>>> take() { return std::move(m_blocks); }

private:
    std::vector<std::vector<std::array<double, 3>>> m_blocks;
    std::map<int, std::size_t> m_index; // block -> its place in m_blocks
};

// The host's own phases, where a block's first steps show them better than phases.csv does. A block
// of the A/B starts from a GPU the probe drained, so its first k steps, k = queueCapacity /
// launchesPerStep (1 to kBlockFirstSteps), launch into a queue that has room for all their
// launches: none of them waits. phases.csv holds each block's medians over all its steps, and in a
// loop whose GPU is slower than its host a later step waits inside its launches for the queue to
// have room: that wait counts in its phases as host time, and the replay, which queues the launches
// itself, would count it twice. A first step may instead be slow to start (the GPU idle, caches
// cold). Both are upper bounds on the host's own time: the lower is taken, by the median over the
// blocks of F + B + O; nothing where phases.csv's is no higher, or there are no first steps.
struct QueueFreePhases {
    std::vector<std::array<double, 3>> rows; // per block: the medians of its first `steps` steps
    int steps = 0; // k
    double hostMs = 0; // the median over the rows of F + B + O
    double blocksHostMs = 0; // the same over phases.csv
};
std::optional<QueueFreePhases> queueFreePhases(const std::vector<std::array<double, 3>>& blockPhasesMs,
    const std::vector<std::vector<std::array<double, 3>>>& blockFirstStepsMs, std::size_t launchesPerStep,
    std::int64_t queueCapacity);

struct WhatIf;
// The A/B the probe measured in the loop, beside the what-if's prediction of the same style (where
// given), the tax over time, the drift check and the folder's notes: text, `columns` wide (0: a line
// per paragraph, for a window that wraps its text itself).
std::string formatProbeAnswer(const ProbeFolder& folder, const WhatIf* whatIf, int columns = 80);
// --ab defer's answer in two sentences: "deferring FILE:LINE (`item`, 1 a step, 3.1 ms wait) saves
// -X% [LOW, HIGH] of the step, measured in your loop (N rounds, paired, A/A ...)", and how late the
// loop saw the line's values. Empty without a defer estimate.
std::string formatDeferAnswer(const ProbeFolder& folder, int columns = 80);

} // namespace synctax
