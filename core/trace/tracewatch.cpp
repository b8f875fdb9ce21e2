#include "core/trace/tracewatch.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

namespace synctax {

namespace {

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

TraceWatch::TraceWatch(std::string dir, double pollS)
    : m_dir(std::move(dir))
    , m_pollS(pollS)
{
}

bool TraceWatch::isTraceName(const std::string& name)
{
    return endsWith(name, ".pt.trace.json") || endsWith(name, ".pt.trace.json.gz");
}

std::vector<std::string> TraceWatch::poll()
{
    std::vector<std::string> ready;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(m_dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code statError;
        if (!it->is_regular_file(statError) || !isTraceName(it->path().filename().string()))
            continue;
        const std::uintmax_t size = it->file_size(statError);
        if (statError)
            continue;
        const std::string path = it->path().string();
        auto found = m_files.find(path);
        if (found == m_files.end()) {
            m_files[path] = Seen { size, 0, false };
            continue;
        }
        Seen& seen = found->second;
        if (size != seen.size) {
            seen = Seen { size, 0, false }; // still being written, or written again
            continue;
        }
        ++seen.stablePolls;
        // An empty file is one being created, until it stays empty long enough to be reported.
        if (!seen.read && seen.stablePolls >= (size > 0 ? 1 : emptyPolls))
            ready.push_back(path);
    }
    std::sort(ready.begin(), ready.end()); // a directory_iterator's order is unspecified
    return ready;
}

void TraceWatch::finished(const std::string& path) { m_files[path].read = true; }

void TraceWatch::skipPresent()
{
    poll(); // registers every trace file there
    for (auto& [path, seen] : m_files)
        seen.read = true;
}

bool TraceWatch::idle() const
{
    for (const auto& [path, seen] : m_files) {
        if (!seen.read)
            return false;
    }
    return true;
}

void TraceWatch::sleep(const std::atomic<bool>& stop) const
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(m_pollS);
    while (!stop.load() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

} // namespace synctax
