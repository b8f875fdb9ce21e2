#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace synctax {

// A folder that torch.profiler's tensorboard_trace_handler writes into, polled (no inotify): a
// *.pt.trace.json[.gz] file is complete once its size stayed the same over one poll. A file that
// changes after it was read (or failed to be read, e.g. cut short) is read again once it settles.
class TraceWatch {
public:
    explicit TraceWatch(std::string dir, double pollS = 0.5);

    // The files complete since the last poll and not read yet, in name order (the handler's names
    // hold the time they were written).
    std::vector<std::string> poll();
    void finished(const std::string& path);
    // The files there now count as read: only files written from now on are reported.
    void skipPresent();
    // Every file seen so far is read: nothing waits to settle.
    bool idle() const;
    // One poll interval, cut short when `stop` is set.
    void sleep(const std::atomic<bool>& stop) const;

    static bool isTraceName(const std::string& name);

private:
    struct Seen {
        std::uintmax_t size = 0;
        int stablePolls = 0;
        bool read = false;
    };
    static constexpr int emptyPolls = 4;
    std::string m_dir;
    double m_pollS;
    std::map<std::string, Seen> m_files;
};

} // namespace synctax
