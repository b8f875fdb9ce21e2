#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracesequences.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace synctax;

namespace {

// A committed trace read and analysed, with its steps' sequences.
struct Sequenced {
    KinetoTrace trace;
    TraceReport report;
    std::vector<StepSequence> sequences;
};

Sequenced sequenced(const std::string& path)
{
    TraceReadResult read = readKinetoTrace(path);
    if (!read.trace)
        return {};
    Sequenced s { std::move(*read.trace), {}, {} };
    s.report = analyseTrace(s.trace);
    s.sequences = launchSequences(s.trace, s.report);
    return s;
}

} // namespace

TEST(LaunchSequence, ARealTraceGivesEachStepItsJoinedLaunchesAndItsSync)
{
    const Sequenced s = sequenced(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz");
    const KinetoTrace& trace = s.trace;
    const TraceReport& report = s.report;
    const std::vector<StepSequence>& sequences = s.sequences;
    ASSERT_FALSE(sequences.empty());
    ASSERT_EQ(sequences.size(), report.steps.size());

    // Counted here from the events, not through the join: the correlations of GPU work, then the
    // launches starting inside each step that carry one of them. A Python count over the raw JSON
    // (launch calls in each ProfilerStep#N whose args.correlation a kernel, gpu_memcpy or
    // gpu_memset shares) gives 39 in every step, the .item()'s copy included.
    std::set<std::int64_t> gpuCorrelations;
    for (const TraceEvent& e : trace.events)
        if (e.kind == TraceEventKind::Kernel || e.kind == TraceEventKind::Memcpy || e.kind == TraceEventKind::Memset)
            gpuCorrelations.insert(e.correlation);
    for (size_t i = 0; i < sequences.size(); ++i) {
        const TraceStep& step = report.steps[i];
        const StepSequence& seq = sequences[i];
        size_t joined = 0;
        for (const TraceEvent& e : trace.events)
            if (e.kind == TraceEventKind::Launch && e.startNs >= step.startNs && e.startNs < step.endNs
                && gpuCorrelations.count(e.correlation))
                ++joined;
        EXPECT_EQ(joined, 39u) << step.name;
        EXPECT_EQ(seq.ops.size(), joined) << step.name;
        EXPECT_NEAR(seq.stepHostUs, double(step.endNs - step.startNs) * 1e-3, 1e-6) << step.name;
        ASSERT_EQ(seq.syncAtUs.size(), 1u) << step.name; // one .item() per step
        ASSERT_EQ(seq.syncEndUs.size(), 1u) << step.name;
        EXPECT_GE(seq.syncAtUs[0], 0) << step.name;
        EXPECT_LE(seq.syncAtUs[0], seq.syncEndUs[0]) << step.name;
        EXPECT_LE(seq.syncEndUs[0], seq.stepHostUs) << step.name;
        double previous = 0;
        for (const LaunchOp& op : seq.ops) {
            EXPECT_GE(op.issueUs, previous) << step.name;
            EXPECT_LT(op.issueUs, seq.stepHostUs) << step.name;
            EXPECT_GT(op.hostUs, 0) << step.name;
            EXPECT_GT(op.gpuUs, 0) << step.name;
            EXPECT_EQ(op.stream, 7) << step.name; // the trace's one stream (GPU 0 stream 7)
            previous = op.issueUs;
        }
    }
}

TEST(LaunchSequence, EventsOnAnotherThreadThanTheLoopsAreMarked)
{
    // A Python ResNet-50 step: its backward runs on the autograd engine's thread.
    const Sequenced s = sequenced(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/whatif/resnet50-none.pt.trace.json.gz");
    const KinetoTrace& trace = s.trace;
    const TraceReport& report = s.report;
    const std::vector<StepSequence>& sequences = s.sequences;
    ASSERT_FALSE(sequences.empty());
    ASSERT_EQ(sequences.size(), report.steps.size());
    for (size_t i = 0; i < sequences.size(); ++i) {
        const TraceStep& step = report.steps[i];
        const StepSequence& seq = sequences[i];
        ASSERT_EQ(seq.hostEventOffLoop.size(), seq.hostEventUs.size()) << step.name;
        // Counted here from the events: the step marker's thread, then the host events inside the
        // step on any other.
        std::int64_t loopTid = -1;
        for (const TraceEvent& e : trace.events)
            if (e.kind == TraceEventKind::Step && e.startNs == step.startNs)
                loopTid = trace.lanes[e.lane].tid;
        ASSERT_GE(loopTid, 0) << step.name;
        size_t off = 0, all = 0;
        for (const TraceEvent& e : trace.events) {
            if (isGpuKind(e.kind) || e.kind == TraceEventKind::Step || e.startNs < step.startNs
                || e.startNs >= step.endNs)
                continue;
            ++all;
            off += trace.lanes[e.lane].tid != loopTid ? 1 : 0;
        }
        EXPECT_EQ(seq.hostEventUs.size(), all) << step.name;
        EXPECT_EQ(size_t(std::count(seq.hostEventOffLoop.begin(), seq.hostEventOffLoop.end(), 1)), off) << step.name;
        EXPECT_GT(off, 1000u) << step.name; // the backward's ops and launches
        EXPECT_LT(off, all / 2) << step.name; // the forward's and the optimizer's Python frames are the loop's
    }
}

TEST(LaunchSequence, PhaseBoundsOfARealStepAreWherePyTorchNamesThem)
{
    // small_resnet's `none` loop, recorded with stacks. Read off the JSON by hand (µs from each
    // step's start): the `torch/_tensor.py(576): backward` frame, the first `Optimizer.step#SGD.step`
    // annotation's start, and its end.
    const Sequenced s
        = sequenced(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/whatif/small_resnet-none.pt.trace.json.gz");
    ASSERT_FALSE(s.report.steps.empty());
    const std::vector<LoopPhaseBounds> bounds = loopPhaseBounds(s.trace, s.report);
    ASSERT_EQ(bounds.size(), s.report.steps.size());
    const struct {
        const char* step;
        double backward, optimizer, optimizerEnd;
    } expected[] = { { "ProfilerStep#2", 11675.874, 31785.243, 34058.419 },
        { "ProfilerStep#3", 10610.294, 22804.552, 24600.648 } };
    for (const auto& e : expected) {
        const auto at = std::find_if(
            s.report.steps.begin(), s.report.steps.end(), [&](const TraceStep& step) { return step.name == e.step; });
        ASSERT_NE(at, s.report.steps.end()) << e.step;
        const LoopPhaseBounds& b = bounds[size_t(at - s.report.steps.begin())];
        ASSERT_TRUE(b.complete()) << e.step;
        EXPECT_NEAR(*b.backwardUs, e.backward, 0.01) << e.step;
        EXPECT_NEAR(*b.optimizerUs, e.optimizer, 0.01) << e.step;
        EXPECT_NEAR(*b.optimizerEndUs, e.optimizerEnd, 0.01) << e.step;
    }
    // Every step of the trace has the three, in order, inside it.
    for (size_t i = 0; i < bounds.size(); ++i) {
        ASSERT_TRUE(bounds[i].complete()) << i;
        EXPECT_LT(*bounds[i].optimizerUs, *bounds[i].optimizerEndUs) << i;
        EXPECT_LE(*bounds[i].optimizerEndUs, s.sequences[i].stepHostUs) << i;
    }
}

TEST(LaunchSequence, WithoutStacksTheBackwardStartsAtTheAutogradEngine)
{
    // A trace without Python frames marks no backward frame: the engine's first op stands for it.
    const Sequenced s = sequenced(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item-nostack.json");
    ASSERT_FALSE(s.report.steps.empty());
    const LoopPhaseBounds b = loopPhaseBounds(s.trace, s.report).front();
    ASSERT_TRUE(b.backwardUs);
    const TraceStep& step = s.report.steps.front();
    std::int64_t firstEngineNs = -1;
    for (const TraceEvent& e : s.trace.events) {
        if (e.startNs >= step.startNs && e.startNs < step.endNs && e.kind == TraceEventKind::CpuOp
            && s.trace.names[e.name].rfind("autograd::engine::evaluate_function", 0) == 0) {
            firstEngineNs = e.startNs;
            break;
        }
    }
    ASSERT_GE(firstEngineNs, 0);
    EXPECT_NEAR(*b.backwardUs, double(firstEngineNs - step.startNs) * 1e-3, 1e-9);
}
