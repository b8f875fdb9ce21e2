#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// What SyncTax says about one Kineto trace: per step and per sync site, what the syncs cost.
// Times are absolute ns (as in KinetoTrace) or ms for durations.

struct TraceSourceInfo {
    std::string file;
    std::optional<std::string> torchVersion;
    std::optional<std::string> cudaVersion; // "13.0", from cuda_runtime_version
    std::string device; // "NVIDIA H200"; empty when the trace names none
    std::optional<std::int64_t> rank;
    std::optional<std::int64_t> worldSize;
};

struct TraceStep {
    std::string name; // "ProfilerStep#12", or "whole trace" when the trace marks no steps
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    double stepMs = 0;
    double dispatchMs = 0; // D: host time inside the step's launch calls
    double gpuBusyMs = 0; // G: the union of the step's GPU op intervals
    int launches = 0; // K
    int syncs = 0;
    double syncWaitMs = 0; // the host's time inside the step's syncs
    double syncBubbleMs = 0; // GPU idle after the step's syncs, until the next GPU op; at most stepMs
    int queueMax = 0; // the deepest queue on any stream during the step (HTA's definition)
    double lagMs = 0; // how far the host ran ahead of the GPU at the step's end
    double taxPct = 0; // syncBubbleMs / stepMs, in percent: the tax as it happened
    // HTA's idle time breakdown of the GPU's idle time in the step
    double idleHostWaitMs = 0;
    double idleKernelWaitMs = 0;
    double idleOtherMs = 0;
};

// One sync: one causing op (an .item() whose wait is split over a copy and a stream sync counts once).
struct TraceSync {
    std::int64_t startNs = 0; // the first blocking call's start
    std::int64_t endNs = 0; // the last blocking call's end
    double waitMs = 0; // the sum of the blocking calls' durations
    // The next GPU op's start after endNs; endNs when the GPU was busy, or when an earlier sync's
    // bubble already holds all of that idle time.
    std::int64_t bubbleEndNs = 0;
    // The idle time up to bubbleEndNs that no earlier sync's bubble holds (an idle GPU counts
    // once, however many syncs precede it), within what is left of its step's time.
    double bubbleMs = 0;
    std::string api; // "cudaStreamSynchronize", "blocking cudaMemcpyAsync (DtoH pageable)", ...
    int site = -1; // index into TraceReport::sites
    int step = -1; // index into TraceReport::steps; -1 outside every step
    std::uint32_t hostLane = 0; // KinetoTrace::lanes index of the thread that waited
};

struct TraceSyncSite {
    std::string op; // the causing op: "aten::item", "aten::nonzero", "torch.cuda.synchronize", ...
    std::optional<std::string> python; // "train.py(87): <module>" when the trace has stacks
    int count = 0; // syncs inside steps
    double perStep = 0; // syncs per step
    double waitMs = 0; // host wait per step
    double bubbleMs = 0; // GPU bubble per step
    double sharePct = 0; // bubbleMs / mean step time, in percent
};

struct QueueDepthPoint {
    std::int64_t ns = 0;
    int depth = 0;
};

// HTA's queue length: +1 at a launch call's start, -1 at its GPU op's start.
struct StreamQueue {
    std::int64_t device = 0;
    std::int64_t stream = 0;
    std::vector<QueueDepthPoint> points; // one per change, in time order
    int max = 0;
    double mean = 0; // time-weighted over the stream's first to last point
};

struct LagPoint {
    std::int64_t ns = 0; // a launch call's start
    double lagMs = 0; // its GPU op's start minus the launch's start
};

struct TraceRegime {
    double dMs = 0; // mean dispatch per step
    double gMs = 0; // mean GPU busy per step
    double hMs = 0; // mean host time per step outside dispatch and syncs
    double syncsPerStep = 0;
    // classifyRegime's words: dispatch_bound, gpu_bound or balanced; empty where the trace holds no
    // GPU work or cannot be right (the sentence then says why)
    std::string label;
    std::string sentence; // what that means for this loop's syncs, in words
};

struct TraceReport {
    TraceSourceInfo source;
    bool stepsMarked = false; // false: one window for the whole trace (said in notes)
    std::vector<TraceStep> steps;
    std::vector<TraceSync> syncs;
    std::vector<TraceSyncSite> sites; // most bubble per step first
    std::vector<StreamQueue> queues;
    std::vector<LagPoint> lag;
    TraceRegime regime;
    double meanStepMs = 0;
    double taxPct = 0; // all sync bubbles inside steps / all step time, in percent
    std::vector<std::string> notes; // what the trace lacked, and the reader's notes
    // What the trace holds that cannot happen (a GPU op starting before its launch call, launches
    // sharing a correlation id), each also the first of the notes: no regime, tax or what-if is
    // told from such a trace.
    std::vector<std::string> impossible;
};

} // namespace synctax
