#pragma once

#include <memory>
#include <string>

namespace synctax {

// One run at a time in an output folder: a lock file in the folder, held with flock(2). The
// kernel drops the lock when its process ends however it ends, so a crashed run leaves no stale
// lock; the file names the holder for the run that is refused. A folder's lock does not cover its
// subfolders (the process-K/ of a run spread over processes lock their own).
class OutputLock {
public:
    static constexpr const char* fileName = ".synctax-run.lock";

    // Locks `dir`, an existing folder, writing `holder` (who is running, since when) into the
    // lock file. Null when the folder is held or the file cannot be made; `why` then says so,
    // naming the holder ("held by pid 1234, started 2024-05-01T12:00:00Z").
    static std::unique_ptr<OutputLock> acquire(const std::string& dir, const std::string& holder, std::string* why);
    ~OutputLock(); // removes the lock file, then lets the lock go
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

    // "pid 1234, started 2024-05-01T12:00:00Z": this process, now, as a holder line.
    static std::string thisProcess();

private:
    OutputLock(int fd, std::string path);

    int m_fd = -1;
    std::string m_path;
};

} // namespace synctax
