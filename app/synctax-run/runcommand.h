#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace synctax {

struct RunOptions {
    std::string config; // file or preset name; empty for the machine's default preset
    std::string device; // overrides the config's device when set
    std::string outDir; // default: results/<name>-<timestamp>
    bool quick = false;
    std::optional<uint64_t> seed;
    std::string tracePath; // Chrome Trace Event JSON of every step; none when empty
    std::string kinetoDir; // where each group's profiled capture is kept (CUDA builds); none when empty
    std::optional<int> processes; // overrides the config's processes when set
    bool force = false; // write into an outDir that holds an earlier run's results
    std::optional<int> ranks; // overrides (or adds) the config's distributed.ranks when set
    // Set by synctax-run for each rank process it starts (hidden options): this process's rank and
    // the rendezvous (a c10d FileStore's path) the ranks meet at.
    int rank = -1;
    std::string rendezvous;
};

// Checks the config with the options applied, claims its output folder, runs it (here, spread over
// processes or over ranks) and writes its results there.
// Exit codes: 0 ok, 1 a cell failed, 2 bad input (nothing ran: a bad config, an output that cannot
// be written, an outDir in use by another run or holding results without force), 130 interrupted
// (results kept).
// Runs in synctax-run-engine, the one part of the runner that links LibTorch.
int runCommand(const RunOptions& options);

// synctax-run's `run`: replaces this process with synctax-run-engine (beside this executable) and
// the same arguments, so that the other commands never load LibTorch (its libraries alone hold
// about 160 MB resident). Returns only when that fails: exit code 2, said on stderr.
int execEngine(char** argv);

} // namespace synctax
