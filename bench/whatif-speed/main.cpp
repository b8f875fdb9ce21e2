// How long the Trace view's what-if takes on a real trace (default ResNet-50, about 800 launches a
// step): importedLoop once (the load's worker builds it), then whatIf over every catalog style at
// ROUNDS host-work values, as a slider drag asks for them on the window's thread. With PHASES_FILE
// (`synctax-run trace --phases-file`'s), the loop replayed at the spread of those timings. Prints the
// median and range in ms. A benchmark, not a test.
//
//     synctax-whatif-speed [TRACE [ROUNDS [PHASES_FILE]]]
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracewhatif.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv)
{
    const std::string path = argc > 1 ? argv[1] : "tests/data/traces/torch-2.11-h200/resnet50-none.pt.trace.json.gz";
    const int rounds = argc > 2 ? std::max(1, std::stoi(argv[2])) : 21;
    const auto read = synctax::readKinetoTrace(path);
    if (!read.trace) {
        std::fprintf(stderr, "%s\n", read.error ? read.error->format().c_str() : "cancelled");
        return 2;
    }
    const synctax::TraceReport report = synctax::analyseTrace(*read.trace);
    synctax::ImportedLoopOptions options;
    if (argc > 3) {
        const synctax::PhasesFileRead phases = synctax::loadPhasesFile(argv[3]);
        if (!phases.errors.empty()) {
            std::fprintf(stderr, "%s", synctax::formatErrors(phases.errors).c_str());
            return 2;
        }
        options.phasesSpreadMs = phases.rows;
    }
    std::vector<double> loopMs;
    synctax::ImportedLoop loop;
    for (int r = 0; r < 5; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        loop = synctax::importedLoop(*read.trace, report, options);
        loopMs.push_back(msSince(t0));
    }
    if (!loop.available) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), loop.reason.c_str());
        return 2;
    }
    std::vector<double> ms;
    volatile double sink = 0; // keeps the predictions from being optimised away
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const synctax::WhatIf w = synctax::whatIf(loop, 500.0 * r); // a slider's 0.5 ms steps
        ms.push_back(msSince(t0));
        sink = sink + w.rows.back().stepMs;
    }
    std::sort(loopMs.begin(), loopMs.end());
    std::sort(ms.begin(), ms.end());
    std::printf(
        "%s: %zu launches per step, %zu host(s); importedLoop median %.1f ms [%.1f..%.1f] over 5; whatIf (%zu rows) "
        "median %.2f ms [%.2f..%.2f] over %d host-work values\n",
        path.c_str(), loop.base.ops.size(), std::max<std::size_t>(1, loop.spreadBase.size()), loopMs[loopMs.size() / 2],
        loopMs.front(), loopMs.back(), synctax::whatIfStyles().size() + 1, ms[ms.size() / 2], ms.front(), ms.back(),
        rounds);
    return 0;
}
