// How long the launch-sequence replay takes: a recorded step of a real trace (default ResNet-50,
// about 800 launches) replayed for 50 steps, 7 times over (one per logging style, as the app would
// for its predictions), repeated ROUNDS times; prints the median and range in ms. A benchmark, not
// a test: the goal of 50 ms for the 7 replays is printed beside the numbers.
#include "core/analysis/traceanalysis.h"
#include "core/files/kinetoreader.h"
#include "core/queuemodel/launchsequence.h"
#include "core/queuemodel/replaysimulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    const std::string path = argc > 1 ? argv[1] : "tests/data/traces/torch-2.11-h200/resnet50-item.pt.trace.json.gz";
    const int rounds = argc > 2 ? std::max(1, std::stoi(argv[2])) : 21;
    const auto read = synctax::readKinetoTrace(path);
    if (!read.trace) {
        std::fprintf(stderr, "%s\n", read.error ? read.error->format().c_str() : "cancelled");
        return 2;
    }
    const auto sequences = synctax::launchSequences(*read.trace, synctax::analyseTrace(*read.trace));
    if (sequences.empty()) {
        std::fprintf(stderr, "%s: no steps to replay\n", path.c_str());
        return 2;
    }
    const synctax::StepSequence& step = sequences[sequences.size() / 2];
    std::vector<double> ms;
    volatile double sink = 0; // keeps the replays from being optimised away
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int style = 0; style < 7; ++style) {
            synctax::ReplayOptions options;
            options.hostWorkUs = 1000.0 * style; // seven different loops, so nothing is reused
            sink = sink + synctax::replaySteps(step, options).msPerStep;
        }
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%s: %zu launches per step; 7 replays x 50 steps: median %.2f ms [%.2f..%.2f] over %d rounds "
                "(goal < 50 ms: %s)\n",
        path.c_str(), step.ops.size(), ms[ms.size() / 2], ms.front(), ms.back(), rounds,
        ms[ms.size() / 2] < 50 ? "met" : "missed");
    return 0;
}
