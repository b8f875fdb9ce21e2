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
    std::optional<int> processes; // overrides the config's processes when set
    bool force = false; // write into an outDir that holds an earlier run's results
};

// Exit codes: 0 ok, 1 a cell failed, 2 bad input (nothing ran: a bad config, an output that cannot
// be written, an outDir in use by another run or holding results without force), 130 interrupted
// (results kept).
int runCommand(const RunOptions& options);
int validateCommand(const std::string& config);
int presetsCommand();
int printConfigCommand(const std::string& preset);
int diffCommand(const std::string& a, const std::string& b);

} // namespace synctax
