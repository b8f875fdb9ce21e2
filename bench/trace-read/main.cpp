// synctax-trace-read FILE...: reads each Kineto trace with readKinetoTrace and prints how long it
// took, the MB/s of the JSON text, the events kept, and how soon a cancel raised after half the
// read stops it. A benchmark, not a test: it reports numbers and asserts none.
#include "core/trace/kinetoreader.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>

using namespace synctax;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string path = argv[i];
        const auto start = std::chrono::steady_clock::now();
        const TraceReadResult r = readKinetoTrace(path);
        const double seconds = secondsSince(start);
        if (r.error) {
            std::printf("%s\n", r.error->format().c_str());
            continue;
        }
        const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
        std::printf("%s: %.1f MB file, %.3f s (%.0f MB/s of the file), %zu of %llu events kept\n", path.c_str(), mb,
            seconds, mb / seconds, r.trace->events.size(), static_cast<unsigned long long>(r.trace->eventsInFile));

        // The cancel is raised from the progress callback once half the file is read.
        std::atomic<bool> cancel { false };
        std::chrono::steady_clock::time_point raised;
        TraceReadOptions options;
        options.cancel = &cancel;
        options.progress = [&](const TraceReadProgress& p) {
            if (!cancel && p.fileBytesRead * 2 >= p.fileBytes) {
                raised = std::chrono::steady_clock::now();
                cancel = true;
            }
        };
        const TraceReadResult stopped = readKinetoTrace(path, options);
        if (stopped.cancelled)
            std::printf("  cancel at half the file: stopped %.2f ms after it was raised\n", secondsSince(raised) * 1e3);
    }
    return 0;
}
