#pragma once

// A hand-built trace of a GPU-bound loop and its report, for the Trace view's tests: every number
// below is written here, not computed by the analysis, so the tests do not need it.
#include "ui/trace/tracefile.h"

#include <QThread>

#include <atomic>
#include <cstdint>

namespace tracefixtures {

using namespace synctax;

constexpr std::int64_t baseNs = 1'700'000'000'000'000'000;
constexpr std::int64_t ms = 1'000'000;
inline const char* itemPython = "train.py(87): <module>";

// Three 10 ms steps: ten launches of 0.1 ms each, their kernels 0.7 ms each on stream 7; one
// aten::item sync per step (on rank 1 step 1 the host stalls 4 ms before it); one aten::nonzero
// sync in step 1. The GPU idles 0.8 ms after each item sync and 0.5 ms after the nonzero.
inline TraceFile rankFile(int rank)
{
    TraceFile f;
    f.path = "/traces/rank" + std::to_string(rank) + ".pt.trace.json";
    KinetoTrace& t = f.trace;
    t.info.file = f.path;
    t.info.rank = rank;
    t.info.worldSize = 2;
    t.names = { "ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3", "aten::add", "cudaLaunchKernel",
        "void add_kernel", "aten::item", "cudaStreamSynchronize", "aten::nonzero" };
    t.lanes = { TraceLane { false, 4000 + rank, 100, "thread 100 (python)" },
        TraceLane { true, rank, 7, "GPU " + std::to_string(rank) + " stream 7" } };
    auto add
        = [&](std::int64_t start, std::int64_t duration, std::uint32_t name, std::uint32_t lane, TraceEventKind kind) {
              t.events.push_back({ start, duration, -1, name, lane, kind });
          };
    TraceReport& r = f.report;
    r.source.file = f.path;
    r.source.device = "NVIDIA H200";
    r.source.cudaVersion = "13.0";
    r.source.rank = rank;
    r.source.worldSize = 2;
    r.stepsMarked = true;
    for (int s = 0; s < 3; ++s) {
        const std::int64_t start = baseNs + s * 10 * ms;
        const std::int64_t stall = (rank == 1 && s == 1) ? 4 * ms : 0;
        add(start, 10 * ms, std::uint32_t(s), 0, TraceEventKind::Step);
        for (int k = 0; k < 10; ++k) {
            add(start + k * ms / 5, ms / 10, 4, 0, TraceEventKind::Launch);
            add(start + ms / 2 + k * 7 * ms / 10, 7 * ms / 10, 5, 1, TraceEventKind::Kernel);
        }
        const std::int64_t sync = start + 2 * ms + stall;
        add(sync, 5 * ms, 6, 0, TraceEventKind::CpuOp);
        add(sync + ms / 10, 4 * ms, 7, 0, TraceEventKind::Sync);
        r.syncs.push_back(
            { sync + ms / 10, sync + 41 * ms / 10, 4.0, sync + 49 * ms / 10, 0.8, "cudaStreamSynchronize", 0, s, 0 });
        if (s == 1) {
            add(start + 8 * ms, ms, 8, 0, TraceEventKind::CpuOp);
            add(start + 8 * ms, ms, 7, 0, TraceEventKind::Sync);
            r.syncs.push_back(
                { start + 8 * ms, start + 9 * ms, 1.0, start + 95 * ms / 10, 0.5, "cudaStreamSynchronize", 1, s, 0 });
        }
        TraceStep step;
        step.name = "ProfilerStep#" + std::to_string(s + 1);
        step.startNs = start;
        step.endNs = start + 10 * ms;
        step.stepMs = 10;
        step.dispatchMs = 1.0;
        step.gpuBusyMs = 7.0;
        step.launches = 10;
        step.syncs = s == 1 ? 2 : 1;
        step.syncWaitMs = s == 1 ? 5.0 : 4.0;
        step.syncBubbleMs = s == 1 ? 1.3 : 0.8;
        step.queueMax = 9;
        step.lagMs = 0.4;
        step.taxPct = step.syncBubbleMs / step.stepMs * 100.0;
        r.steps.push_back(step);
        r.lag.push_back({ start, 0.5 });
        r.lag.push_back({ start + ms, 1.5 + 0.1 * rank });
    }
    StreamQueue q;
    q.device = rank;
    q.stream = 7;
    for (int i = 0; i < 30; ++i)
        q.points.push_back({ baseNs + i * ms, (i % 10) });
    q.max = 9;
    q.mean = 4.5;
    r.queues.push_back(q);
    r.sites = { TraceSyncSite { "aten::item", std::string(itemPython), 3, 1.0, 4.0, 0.8, 8.0 },
        TraceSyncSite { "aten::nonzero", std::nullopt, 1, 1.0 / 3.0, 1.0 / 3.0, 0.5 / 3.0, 0.5 / 3.0 / 10.0 * 100.0 } };
    r.regime = TraceRegime { 1.0, 7.0, 0.5, 4.0 / 3.0, "gpu_bound", "" };
    r.meanStepMs = 10;
    r.taxPct = (0.8 * 3 + 0.5) / 30.0 * 100.0;
    return f;
}

inline TraceFilesPtr twoRanks()
{
    auto files = std::make_shared<TraceFiles>();
    files->push_back(rankFile(0));
    files->push_back(rankFile(1));
    return files;
}

// A load that answers at once with rankFile(N) for a path holding "rankN", or fails for one
// holding "bad"; one holding "slow" first reports half its bytes, then waits for cancel or `release`.
inline TraceLoadFunction fakeLoad(std::atomic<bool>* release = nullptr)
{
    return [release](const std::string& path, const std::function<void(const TraceLoadProgress&)>& progress,
               const std::atomic<bool>& cancel) {
        TraceLoadOutcome outcome;
        if (path.find("slow") != std::string::npos) {
            progress({ 50, 100 });
            // Bounded so that a broken cancel fails the test instead of hanging it.
            for (int i = 0; i < 60000 && !cancel.load() && !(release && release->load()); ++i)
                QThread::msleep(1);
            if (cancel.load() && !(release && release->load())) {
                outcome.cancelled = true;
                return outcome;
            }
        }
        if (path.find("bad") != std::string::npos) {
            outcome.error = path + ": byte 12, event 3: expected a number for \"ts\", found a string";
            return outcome;
        }
        progress({ 100, 100 });
        const auto at = path.find("rank");
        TraceFile file = rankFile(at == std::string::npos ? 0 : path[at + 4] - '0');
        file.path = path;
        outcome.file = std::move(file);
        return outcome;
    };
}

} // namespace tracefixtures
