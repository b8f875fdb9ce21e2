#pragma once

#include <memory>
#include <string>

namespace synctax {

// One run at a time in an output folder: a lock file in the folder, held with flock(2). The
// kernel drops the lock when its process ends however it ends, so a crashed run's lock never blocks
// the next (its file stays, naming it: inspect() tells such a file stale); the file names the holder
// for the run that is refused. A folder's lock does not cover its subfolders (the process-K/ of a
// run spread over processes lock their own).
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

    // Whether a run holds `dir` now, for what reads the folder (a run killed with SIGKILL leaves its
    // lock file, naming it, but no lock): no lock file, a run that holds it, or a stale file.
    struct State {
        enum class Kind { None, Held, Stale } kind = Kind::None;
        std::string holder; // the lock file's line: "pid 1234, started ..."
        bool holderAlive = false; // Stale: a process with the holder's pid exists (the pid was reused)
    };
    static State inspect(const std::string& dir);
    // "its lock is held by a run still going (pid 1234, ...)", "its lock (.synctax-run.lock) is stale:
    // pid 1234, ... is no longer running"; empty for None.
    static std::string describe(const State& state);

private:
    OutputLock(int fd, std::string path);

    int m_fd = -1;
    std::string m_path;
};

} // namespace synctax
