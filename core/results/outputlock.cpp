#include "core/results/outputlock.h"

#include "core/text/format.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace synctax {

namespace {

std::string readHolder(int fd)
{
    char text[256];
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    std::string holder(text, size_t(std::max<ssize_t>(n, 0)));
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\r'))
        holder.pop_back();
    return holder;
}

// The pid a holder line names ("pid 1234, started ..."); 0 when it names none.
pid_t holderPid(const std::string& holder)
{
    if (holder.rfind("pid ", 0) != 0)
        return 0;
    long pid = 0;
    for (size_t i = 4; i < holder.size() && holder[i] >= '0' && holder[i] <= '9' && pid < 1L << 30; ++i)
        pid = pid * 10 + (holder[i] - '0');
    return pid_t(pid);
}

bool processExists(pid_t pid)
{
    if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM))
        return false;
    // A killed process that its parent has not reaped yet is a zombie: gone, as far as a lock goes.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const size_t name = line.rfind(')');
    return name == std::string::npos || name + 2 >= line.size() || line[name + 2] != 'Z';
}

} // namespace

OutputLock::OutputLock(int fd, std::string path)
    : m_fd(fd)
    , m_path(std::move(path))
{
}

OutputLock::~OutputLock()
{
    // Unlinked while still locked: whoever opened the old file re-checks after locking and retries.
    unlink(m_path.c_str());
    close(m_fd);
}

std::string OutputLock::thisProcess()
{
    return "pid " + std::to_string(getpid()) + ", started "
        + formatTimestamp(std::chrono::system_clock::now(), TimestampStyle::Iso8601Utc);
}

OutputLock::State OutputLock::inspect(const std::string& dir)
{
    const std::string path = (std::filesystem::path(dir) / fileName).string();
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    State state;
    state.holder = readHolder(fd);
    const pid_t pid = holderPid(state.holder);
    state.holderAlive = processExists(pid);
    // The lock tells, not the pid: a pid may be another program's by now, and a run that just took
    // the lock may not have written its own line yet. The shared lock taken to ask is let go at once.
    const bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    state.kind = held ? State::Kind::Held : State::Kind::Stale;
    return state;
}

std::string OutputLock::describe(const State& state)
{
    const std::string holder = state.holder.empty() ? std::string("a run that named no pid") : state.holder;
    switch (state.kind) {
    case State::Kind::None:
        return "";
    case State::Kind::Held:
        return "its lock is held by a run still going (" + holder + ")";
    case State::Kind::Stale:
        return "its lock (" + std::string(fileName) + ") is stale: " + holder
            + (state.holderAlive ? " holds no lock on it (that pid is another process now)" : " is no longer running");
    }
    return "";
}

std::unique_ptr<OutputLock> OutputLock::acquire(const std::string& dir, const std::string& holder, std::string* why)
{
    const std::string path = (std::filesystem::path(dir) / fileName).string();
    // A few tries: each lost race with a holder that just removed its file costs one.
    for (int attempt = 0; attempt < 8; ++attempt) {
        const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            *why = "cannot create the lock file " + path + ": " + std::strerror(errno);
            return nullptr;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            const std::string other = readHolder(fd);
            close(fd);
            if (error == EWOULDBLOCK)
                *why = "in use by another run (" + (other.empty() ? std::string("starting up") : other) + ")";
            else
                *why = "cannot lock " + path + ": " + std::strerror(error);
            return nullptr;
        }
        struct stat locked {
        }, named {};
        if (fstat(fd, &locked) == 0 && stat(path.c_str(), &named) == 0 && locked.st_ino == named.st_ino
            && locked.st_dev == named.st_dev) {
            const std::string line = holder + "\n";
            if (ftruncate(fd, 0) != 0 || pwrite(fd, line.data(), line.size(), 0) != ssize_t(line.size())) {
                *why = "cannot write the lock file " + path + ": " + std::strerror(errno);
                unlink(path.c_str());
                close(fd);
                return nullptr;
            }
            return std::unique_ptr<OutputLock>(new OutputLock(fd, path));
        }
        close(fd);
    }
    *why = "cannot lock " + path + ": it keeps being replaced";
    return nullptr;
}

} // namespace synctax
