// trace-bench READER FILE: reads a Kineto trace with one JSON reader, prints what it counted,
// the JSON bytes, the time, MB/s of uncompressed JSON and the peak RSS (VmHWM).
#include "readers.h"
#include "source.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace {

long peakRssKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s rapidjson|nlohmann|simdjson FILE(.json|.json.gz)\n", argv[0]);
        return 2;
    }
    const std::string reader = argv[1];
    const auto start = std::chrono::steady_clock::now();
    tracebench::ChunkSource source(argv[2]);
    if (!source.ok()) {
        std::fprintf(stderr, "cannot open %s\n", argv[2]);
        return 1;
    }
    tracebench::ReadOutcome outcome;
    if (reader == "rapidjson")
        outcome = tracebench::readWithRapidJson(source);
    else if (reader == "nlohmann")
        outcome = tracebench::readWithNlohmann(source);
    else if (reader == "simdjson")
        outcome = tracebench::readWithSimdjson(source, argv[2]);
    else {
        std::fprintf(stderr, "unknown reader %s\n", argv[1]);
        return 2;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!outcome.error.empty()) {
        std::fprintf(stderr, "%s: %s\n", argv[2], outcome.error.c_str());
        return 1;
    }
    outcome.tally.print(stdout);
    std::printf("reader %s jsonBytes %llu seconds %.3f MBps %.1f peakRssKiB %ld\n", reader.c_str(),
        (unsigned long long)outcome.textBytes, seconds, outcome.textBytes / 1e6 / seconds, peakRssKiB());
    return 0;
}
