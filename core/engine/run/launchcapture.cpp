#include "core/engine/run/launchcapture.h"

#include "core/analysis/replayfit.h"
#include "core/config/stylecatalog.h"
#include "core/engine/gpu/hostclock.h"
#include "core/engine/styles/loggingstyle.h"
#include "core/engine/training/stepexecutor.h"
#include "core/queuemodel/regime.h"
#include "core/statistics/statistics.h"
#include "core/text/format.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracesequences.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <random>

#if defined(SYNCTAX_HAVE_CUDA) && TORCH_VERSION_MAJOR >= 2
#define SYNCTAX_HAVE_KINETO_CAPTURE 1
#include <ATen/record_function.h>
#include <torch/csrc/autograd/profiler_kineto.h>
#endif

namespace synctax {

#ifdef SYNCTAX_HAVE_KINETO_CAPTURE

namespace {

constexpr int64_t queueCapacity = 1021; // as core/engine/run/regimeprobe.cpp
constexpr int capturedSteps = 6; // the first is left out of the median's choice by being slower
constexpr int timedSteps = 15;

std::string traceName(const std::string& label)
{
    std::string name;
    for (char c : label)
        name += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '-';
    return name + ".pt.trace.json";
}

// Kineto's C++ entry points, as torch.profiler calls them: CPU ops and CUDA activity, steps marked
// as ProfilerStep#N so the trace reader finds them.
void captureSteps(StepExecutor& executor, const std::string& path)
{
    namespace prof = torch::autograd::profiler;
    using torch::profiler::impl::ActivityType;
    const torch::profiler::impl::ProfilerConfig config(torch::profiler::impl::ProfilerState::KINETO);
    const std::set<ActivityType> activities { ActivityType::CPU, ActivityType::CUDA };
    executor.synchronize();
    prof::prepareProfiler(config, activities);
    prof::enableProfiler(config, activities);
    try {
        for (int i = 0; i < capturedSteps; ++i) {
            RECORD_USER_SCOPE("ProfilerStep#" + std::to_string(i));
            executor.step();
        }
        executor.synchronize();
    } catch (...) {
        prof::disableProfiler();
        throw;
    }
    prof::disableProfiler()->save(path);
}

// One step from an idle GPU, unprofiled, as a loop that syncs every step runs it: the loop's host
// work first (the GPU idles under it), then the step; its host time and its drain (until its GPU
// work is done). The host time is the median of several; the drain is that plus the median of each
// step's own time from its last launch to its end. The two medians taken apart came from different
// steps: the host's speed moves by ±20% from step to step, and on the H200 ResNet-50's drain stood
// 0.1 to 4.6 ms past its host time over seven groups of one run whose loops each left 1.6 to 3.5 ms
// queued (middle-regime), and the GPU's start fitted to it moved with that.
struct FromIdle {
    double dispatchMs = 0;
    double drainMs = 0;
    double drainMedianMs = 0; // the median of the drains themselves, kept to compare
};

FromIdle stepFromIdle(StepExecutor& executor, int64_t hostWorkUs, StepOutput& last)
{
    std::vector<double> dispatch, tail, drain;
    executor.synchronize();
    for (int i = 0; i < timedSteps; ++i) {
        spinForUs(hostWorkUs);
        const int64_t t0 = steadyNowNs();
        last = executor.step();
        const int64_t t1 = steadyNowNs();
        executor.synchronize();
        const int64_t t2 = steadyNowNs();
        dispatch.push_back(double(t1 - t0) * 1e-6);
        tail.push_back(double(t2 - t1) * 1e-6);
        drain.push_back(double(t2 - t0) * 1e-6);
    }
    const double dispatchMs = median(dispatch);
    return { dispatchMs, dispatchMs + median(tail), median(drain) };
}

// What a call costs after a step, in µs: the median over a few calls, each after a step has run and
// its GPU work has finished while the host went on, as a loop's read follows its step (`us`, what
// the replay charges); and the median over as many, each right after a synchronize instead
// (`afterSynchronizeUs`, as the probe times L and as reads were timed before), kept to show the
// difference. On the H200 a Python `.item()` of a ready scalar took 10.9 µs right after
// `torch.cuda.synchronize()` and `loss.item()` 30.0 µs after a step whose GPU work had finished
// under 500 µs of host work (bench/python-sync-cost.py). `out` holds the last step's output. The
// GPU has finished when drainMs (the step's drain from an idle GPU) has passed, with a quarter and
// 100 µs to spare.
struct LoopCost {
    double us = 0;
    double afterSynchronizeUs = 0;
};

// alsoAfterSynchronize: false where only `us` is wanted (a step's work without a read).
template <typename F>
LoopCost loopCostUs(StepExecutor& executor, StepOutput& out, double drainMs, bool alsoAfterSynchronize, F&& call)
{
    const auto drainedAfterUs = int64_t(drainMs * 1.25e3) + 100;
    const auto timed = [&] {
        const int64_t t0 = steadyNowNs();
        call();
        return double(steadyNowNs() - t0) * 1e-3;
    };
    std::vector<double> inLoop, afterSynchronize;
    executor.synchronize();
    for (int i = 0; i < 11; ++i) {
        const int64_t start = steadyNowNs();
        out = executor.step();
        spinForUs(drainedAfterUs - (steadyNowNs() - start) / 1000);
        inLoop.push_back(timed());
        if (!alsoAfterSynchronize)
            continue;
        out = executor.step();
        executor.synchronize();
        afterSynchronize.push_back(timed());
    }
    executor.synchronize();
    return { median(inLoop), alsoAfterSynchronize ? median(afterSynchronize) : 0.0 };
}

// What each style's own work costs once its step's GPU work has finished: at a step where it reads
// (its endBlock for the styles that read once per block) and at one where it does not.
std::map<std::string, StyleHostCost> measureStyleCosts(
    StepExecutor& executor, const CaptureRequest& request, double drainMs, StepOutput& out)
{
    std::map<std::string, StyleHostCost> costs;
    const StyleContext context { *request.sink, executor.state().device(), request.stepsPerBlock };
    for (const StyleSpec& spec : request.styles) {
        const StyleInfo* info = findStyle(spec.name);
        if (!info || spec.name == baselineStyle() || costs.count(spec.name))
            continue;
        auto style = makeLoggingStyle(spec, context);
        style->beginBlock();
        const int64_t n = std::max<int64_t>(1, spec.n);
        const int64_t readStep = info->cadence == ReadCadence::EveryN ? n - 1 : 0;
        const int64_t otherStep = info->cadence == ReadCadence::EveryN && n > 1 ? 0 : -1;
        StyleHostCost cost;
        switch (info->cadence) {
        case ReadCadence::EveryStep:
        case ReadCadence::EveryN: {
            const LoopCost read = loopCostUs(executor, out, drainMs, true, [&] { style->afterStep(out, readStep); });
            cost.readUs = read.us;
            cost.readAfterSynchronizeUs = read.afterSynchronizeUs;
            cost.stepUs = otherStep >= 0
                ? loopCostUs(executor, out, drainMs, false, [&] { style->afterStep(out, otherStep); }).us
                : 0;
            break;
        }
        case ReadCadence::BlockEnd: {
            cost.stepUs = loopCostUs(executor, out, drainMs, false, [&] { style->afterStep(out, 0); }).us;
            const LoopCost read = loopCostUs(executor, out, drainMs, true, [&] { style->endBlock(); });
            cost.readUs = read.us;
            cost.readAfterSynchronizeUs = read.afterSynchronizeUs;
            break;
        }
        case ReadCadence::Never:
            cost.stepUs = loopCostUs(executor, out, drainMs, false, [&] { style->afterStep(out, 0); }).us;
            break;
        }
        style->endBlock();
        costs[spec.name] = cost;
    }
    return costs;
}

// How much longer the host takes over a step right after it waited for the GPU in a read-back
// (`.item()` of the loss) than right after a step without one, as a loop runs them: blocks of steps
// back to back, each after the group's host work, every step of one block after a read and none of
// the other's, the two blocks of a pair in a seeded random order (so neither is always first); the
// 10%-trimmed mean of the pairs' differences in mean dispatch time per step, µs. Blocks, not single
// steps in turn: on the H200 tiny_mlp's blocks ran 10 to 16 µs slower per step after a read where
// steps alternating a read and none measured -1.1 µs (start 24), so the slowdown outlasts the step
// after the read. Measured only where the host sets the pace and enough pairs fit the time given:
// where the GPU sets it, a step after no read waits on a full queue, and a long step's pairs are
// too few to resolve tens of µs against its step-to-step spread.
struct AfterSync {
    double us = 0;
    int pairs = 0;
};

AfterSync measureAfterSync(StepExecutor& executor, const ReplayRegime& regime, double hostWorkUs, double stepMs)
{
    constexpr double budgetMs = 3000;
    constexpr int blockSteps = 10;
    constexpr int fewestPairs = 40; // a 1 ms step's spread (about 150 us) to within about 10 us
    constexpr int mostPairs = 100;
    if (!hostSetsThePace(regime.dMs, regime.gMs, hostWorkUs) || stepMs <= 0)
        return {};
    const int pairs = std::min(mostPairs, int(budgetMs / (2 * blockSteps * stepMs)));
    if (pairs < fewestPairs)
        return {};
    std::mt19937 order(20261202);
    std::vector<double> differences;
    differences.reserve(size_t(pairs));
    executor.synchronize();
    StepOutput out = executor.step();
    // Mean dispatch per step over one block, every step after a read or none.
    const auto block = [&](bool read) {
        double us = 0;
        for (int i = 0; i < blockSteps; ++i) {
            if (read)
                (void)out.loss.item<float>();
            spinForUs(int64_t(hostWorkUs));
            const int64_t t0 = steadyNowNs();
            out = executor.step();
            us += double(steadyNowNs() - t0) * 1e-3;
        }
        return us / blockSteps;
    };
    for (int i = 0; i < pairs; ++i) {
        const bool readFirst = (order() & 1U) != 0;
        const double first = block(readFirst);
        const double second = block(!readFirst);
        differences.push_back(readFirst ? first - second : second - first);
    }
    executor.synchronize();
    return { trimmedMean(differences, 0.1), pairs };
}

} // namespace

// LibTorch 2 has no public "is Kineto there" query; a capture that fails says so instead.
bool launchCaptureAvailable() { return true; }

std::optional<CapturedReplay> captureLaunchSequence(
    StepExecutor& executor, const CaptureRequest& request, std::string& reason)
{
    if (!executor.state().device().is_cuda()) {
        reason = "no asynchronous queue on CPU";
        return std::nullopt;
    }
    namespace fs = std::filesystem;
    const bool keep = !request.keepDir.empty();
    const fs::path dir = keep ? fs::path(request.keepDir) : fs::temp_directory_path();
    fs::create_directories(dir);
    const fs::path path
        = dir / (keep ? traceName(request.label) : "synctax-capture-" + std::to_string(steadyNowNs()) + ".json");
    try {
        captureSteps(executor, path.string());
    } catch (const std::exception& e) {
        reason = std::string("the profiler could not capture a step: ") + e.what();
        return std::nullopt;
    }

    const TraceReadResult read = readKinetoTrace(path.string());
    if (!keep) {
        std::error_code ignored;
        fs::remove(path, ignored);
    }
    if (!read.trace) {
        reason
            = "the captured trace could not be read: " + (read.error ? read.error->message : std::string("cancelled"));
        return std::nullopt;
    }
    const TraceReport report = analyseTrace(*read.trace);
    std::vector<StepSequence> steps = launchSequences(*read.trace, report);
    if (steps.size() > 1)
        steps.erase(steps.begin()); // the first profiled step pays the profiler's start
    const StepSequence step = medianStep(steps);
    if (step.ops.empty()) {
        reason = "the captured steps hold no launch joined to GPU work";
        return std::nullopt;
    }

    CapturedReplay r;
    r.traceFile = keep ? path.string() : std::string();
    r.capturedSteps = capturedSteps;
    r.profiledHostMs = step.stepHostUs * 1e-3;
    StepOutput out;
    const FromIdle fromIdle = stepFromIdle(executor, int64_t(request.hostWorkUs), out);
    r.dispatchMs = fromIdle.dispatchMs;
    r.drainMs = fromIdle.drainMs;
    r.drainMedianMs = fromIdle.drainMedianMs;
    r.calibration
        = fitCalibration(step, r.dispatchMs, request.gMs, queueCapacity, drainBeforeSyncMs(r.drainMs, request.syncUs));
    r.calibration.how = captureCalibrationText(r.calibration, step.hostEventUs.size(), r.dispatchMs, r.drainMs);
    r.step = calibrated(step, r.calibration);
    r.regime = replayRegime(r.step, request.hostWorkUs);
    r.costs.syncUs = request.syncUs;
    if (request.sink)
        r.costs.measured = measureStyleCosts(executor, request, r.drainMs, out);
    const AfterSync afterSync
        = measureAfterSync(executor, r.regime, request.hostWorkUs, r.dispatchMs + request.hostWorkUs * 1e-3);
    r.costs.afterSyncUs = afterSync.us;
    r.costs.afterSyncPairs = afterSync.pairs;
    r.costs.source = "measured on " + executor.state().device().str();
    return r;
}

#else

bool launchCaptureAvailable() { return false; }

std::optional<CapturedReplay> captureLaunchSequence(StepExecutor&, const CaptureRequest&, std::string& reason)
{
    reason = "this build has no CUDA with Kineto (LibTorch 2 or newer)";
    return std::nullopt;
}

#endif

} // namespace synctax
