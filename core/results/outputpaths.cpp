#include "core/results/outputpaths.h"

#include "core/results/runoutputs.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

namespace synctax {

std::string outputPathProblem(const std::string& path)
{
    std::error_code ec;
    const fs::path file(path);
    if (fs::is_directory(file, ec))
        return "it is a folder";
    if (fs::is_directory(path + ".tmp", ec))
        return "its temporary file " + path + ".tmp is a folder";
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    if (!fs::exists(folder, ec))
        return "the folder " + folder.string() + " does not exist";
    if (!fs::is_directory(folder, ec))
        return folder.string() + " is not a folder";
    // Permissions alone do not tell (root, read-only mounts): make a file there and remove it.
    std::string probe = (folder / ".synctax-probe-XXXXXX").string();
    const int fd = mkstemp(probe.data());
    if (fd < 0)
        return "cannot create a file in " + folder.string() + ": " + std::strerror(errno);
    close(fd);
    unlink(probe.c_str());
    if (fs::exists(file, ec) && access(path.c_str(), W_OK) != 0)
        return std::strerror(errno);
    return {};
}

std::vector<std::string> earlierRunFiles(const std::string& dir)
{
    std::vector<std::string> found;
    std::error_code ec;
    for (const char* name : { resultsFileName, summaryFileName, stepsFileName, journalFileName, traceFileName }) {
        if (fs::exists(fs::path(dir) / name, ec))
            found.push_back(name);
    }
    std::vector<std::string> processes;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("process-", 0) == 0 && it->is_directory(ec))
            processes.push_back(name + "/");
    }
    std::sort(processes.begin(), processes.end());
    found.insert(found.end(), processes.begin(), processes.end());
    return found;
}

} // namespace synctax
