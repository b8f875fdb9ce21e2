#include "core/results/outputlock.h"

#include "core/text/format.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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
