#include "core/results/folderclaim.h"

#include "core/results/outputpaths.h"
#include "core/results/runoutputs.h"

#include <algorithm>
#include <filesystem>

namespace synctax {

FolderClaim claimOutputFolder(const std::string& dir, const std::vector<std::string>& outputs, bool force)
{
    namespace fs = std::filesystem;
    FolderClaim claim;
    std::string why;
    const OutputLock::State before = OutputLock::inspect(dir); // the lock file that taking the lock replaces
    claim.lock = OutputLock::acquire(dir, OutputLock::thisProcess(), &why);
    if (!claim.lock)
        return { nullptr, FolderClaim::Refusal::InUse, dir + ": " + why };
    std::vector<std::string> earlier = earlierRunFiles(dir);
    // An output named elsewhere (a --trace FILE) that exists is an earlier run's too.
    for (const auto& path : outputs) {
        std::error_code ec;
        const bool listed = std::any_of(earlier.begin(), earlier.end(),
            [&](const std::string& name) { return fs::equivalent(fs::path(dir) / name, path, ec); });
        if (!listed && fs::is_regular_file(path, ec))
            earlier.push_back(path);
    }
    if (!earlier.empty() && !force) {
        std::string names;
        for (const auto& name : earlier)
            names += (names.empty() ? "" : ", ") + name;
        std::string killed;
        std::error_code ec;
        if (before.kind == OutputLock::State::Kind::Stale && !fs::exists(fs::path(dir) / resultsFileName, ec)
            && fs::exists(fs::path(dir) / journalFileName, ec))
            killed = "; that run ended without its results.json and " + OutputLock::describe(before)
                + " ('synctax-run show " + dir + "' prints what it measured)";
        return { nullptr, FolderClaim::Refusal::EarlierResults,
            dir + " holds the results of an earlier run (" + names + ")" + killed };
    }
    for (const auto& path : outputs) {
        if (const std::string problem = outputPathProblem(path); !problem.empty())
            return { nullptr, FolderClaim::Refusal::Unwritable, "cannot write '" + path + "': " + problem };
    }
    return claim;
}

} // namespace synctax
