#pragma once

#include "core/results/outputlock.h"

#include <memory>
#include <string>
#include <vector>

namespace synctax {

// A run's hold on its output folder, taken before anything runs.
struct FolderClaim {
    enum class Refusal { None, InUse, EarlierResults, Unwritable };

    std::unique_ptr<OutputLock> lock; // held until the run ends; null when refused
    Refusal refusal = Refusal::None;
    std::string why; // names the folder or the path, and why
};

// Claims `dir` (an existing folder) for a run that writes `outputs`: its lock, then no earlier
// run's results there or at an output named elsewhere (unless `force`), then every output writable.
FolderClaim claimOutputFolder(const std::string& dir, const std::vector<std::string>& outputs, bool force);

} // namespace synctax
