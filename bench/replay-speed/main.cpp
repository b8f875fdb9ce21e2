// How long the product's replay takes for one slider move: predictStyles over 7 logging styles on
// the calibrated median step of a real trace (importedLoop; default ResNet-50 with no sync, about
// 800 launches), in 50-step blocks as the runner times them and in the steady state the Teach
// window and `synctax-run trace` show (stepsPerBlock = 0), each repeated ROUNDS times; prints the
// median and range in ms. A benchmark, not a test: the goal of 50 ms for the 7 styles x 50 steps
// is printed beside the numbers. What it measured is in bench/replay-speed/README.md.
#include "core/config/stylecatalog.h"
#include "core/queuemodel/stylereplay.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracewhatif.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Timing {
    double median = 0;
    double low = 0;
    double high = 0;
};

template <typename F> Timing timeRounds(int rounds, F&& body)
{
    std::vector<double> ms;
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        body(r);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return { ms[ms.size() / 2], ms.front(), ms.back() };
}

} // namespace

int main(int argc, char** argv)
{
    using namespace synctax;
    const std::string path = argc > 1 ? argv[1] : "tests/data/traces/torch-2.11-h200/resnet50-none.pt.trace.json.gz";
    const int rounds = argc > 2 ? std::max(1, std::stoi(argv[2])) : 21;
    const TraceReadResult read = readKinetoTrace(path);
    if (!read.trace) {
        std::fprintf(stderr, "%s\n", read.error ? read.error->format().c_str() : "cancelled");
        return 2;
    }
    const ImportedLoop loop = importedLoop(*read.trace, analyseTrace(*read.trace), {});
    if (!loop.available) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), loop.reason.c_str());
        return 2;
    }
    // The seven styles of the seed preset (resources/presets/seed.yaml), each at its catalog interval.
    std::vector<StyleSpec> styles;
    for (const char* name : { "none", "item", "item_every_n", "gpu_accumulate", "progress_bar", "progress_bar_postfix",
             "progress_bar_postfix_every_n" })
        styles.push_back({ name, findStyle(name)->defaultN });
    volatile double sink = 0; // keeps the replays from being optimised away
    const auto predict = [&](std::int64_t stepsPerBlock) {
        return [&, stepsPerBlock](int round) {
            ReplayOptions options;
            options.syncUs = loop.costs.syncUs;
            options.hostWorkUs = 1.0 * round; // a slider moved: nothing of the last round is reused
            for (const StyleReplayPrediction& p : predictStyles(loop.base, styles, stepsPerBlock, options, loop.costs))
                sink = sink + p.stepMs;
        };
    };
    std::printf("%s: median step %zu launches, %s\n", path.c_str(), loop.base.ops.size(), loop.calibration.how.c_str());
    const Timing blocks = timeRounds(rounds, predict(50));
    std::printf("predictStyles, 7 styles x 50 steps: median %.2f ms [%.2f..%.2f] over %d rounds (goal < 50 ms: %s)\n",
        blocks.median, blocks.low, blocks.high, rounds, blocks.median < 50 ? "met" : "missed");
    const Timing steady = timeRounds(rounds, predict(0));
    std::printf("predictStyles, 7 styles, steady state: median %.2f ms [%.2f..%.2f] over %d rounds\n", steady.median,
        steady.low, steady.high, rounds);
    return 0;
}
