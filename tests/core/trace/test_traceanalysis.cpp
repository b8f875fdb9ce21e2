#include "core/trace/traceanalysis.h"

#include "tracebuilder.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace synctax;

namespace {

// Two steps of 1000 µs. Step 1 launches two kernels and, inside `loss.item()`, a copy into pinned
// memory and a stream sync; step 2 launches one kernel. Every expected value below is worked out by
// hand from these numbers (µs):
//   launches  100+10 (K1 120-320), 200+10 (K2 320-520), copy 610+10 (memcpy 620-630), 1010+10 (K4 1050-1250)
//   sync      cudaStreamSynchronize 622-640 under aten::item 600-700 > aten::_local_scalar_dense 605-695
KinetoTrace itemTrace()
{
    TraceBuilder b;
    b.frame("train.py(10): <module>", 0, 2000)
        .step("ProfilerStep#1", 0, 1000)
        .step("ProfilerStep#2", 1000, 1000)
        .kernel(100, 10, 1, 120, 200)
        .kernel(200, 10, 2, 320, 200)
        .frame("train.py(5): step", 590, 120)
        .frame("<built-in method item of Tensor object at 0x7f00>", 598, 104)
        .frame("torch/_tensor.py(40): item", 599, 102)
        .op("aten::item", 600, 100)
        .op("aten::_local_scalar_dense", 605, 90)
        .copy(610, 10, 3, 620, 10, "Pinned")
        .sync("cudaStreamSynchronize", 622, 18)
        .kernel(1010, 10, 4, 1050, 200);
    return b.build();
}

} // namespace

TEST(TraceAnalysis, StepWithThreeLaunchesAndAnItem)
{
    const TraceReport r = analyseTrace(itemTrace());
    ASSERT_TRUE(r.stepsMarked);
    ASSERT_EQ(r.steps.size(), 2u);
    const TraceStep& s = r.steps[0];
    EXPECT_EQ(s.name, "ProfilerStep#1");
    EXPECT_DOUBLE_EQ(s.stepMs, 1.0);
    EXPECT_EQ(s.launches, 3);
    EXPECT_NEAR(s.dispatchMs, 0.030, 1e-12); // 10 + 10 + 10 µs of launch calls
    EXPECT_NEAR(s.gpuBusyMs, 0.410, 1e-12); // 120-520 (K1 and K2 back to back) + 620-630
    EXPECT_EQ(s.syncs, 1);
    EXPECT_NEAR(s.syncWaitMs, 0.018, 1e-12); // the pinned copy returns at once: the stream sync alone
    EXPECT_NEAR(s.syncBubbleMs, 0.410, 1e-12); // sync returns at 640, K4 starts at 1050
    EXPECT_NEAR(s.taxPct, 41.0, 1e-9);
    EXPECT_NEAR(s.lagMs, 0.010, 1e-12); // the last launch (the copy, 610) to its memcpy (620)
    EXPECT_EQ(s.queueMax, 1);
    // Idle on stream 7 in step 1: 520-620 before the memcpy and 630-1000 before K4, both launched
    // after the previous op ended (host wait); nothing is kernel wait or other.
    EXPECT_NEAR(s.idleHostWaitMs, 0.470, 1e-12);
    EXPECT_DOUBLE_EQ(s.idleKernelWaitMs, 0);
    EXPECT_DOUBLE_EQ(s.idleOtherMs, 0);
    EXPECT_NEAR(r.steps[1].idleHostWaitMs, 0.050, 1e-12); // 1000-1050 of the same gap

    ASSERT_EQ(r.syncs.size(), 1u);
    const TraceSync& sync = r.syncs[0];
    EXPECT_EQ(sync.startNs, 622000);
    EXPECT_EQ(sync.endNs, 640000);
    EXPECT_EQ(sync.bubbleEndNs, 1050000);
    EXPECT_EQ(sync.api, "cudaStreamSynchronize");
    EXPECT_EQ(sync.step, 0);
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(sync.site, 0);
    const TraceSyncSite& site = r.sites[0];
    EXPECT_EQ(site.op, "aten::item"); // over aten::_local_scalar_dense
    ASSERT_TRUE(site.python.has_value());
    EXPECT_EQ(*site.python, "train.py(5): step"); // not the torch/ frame nor the built-in method
    EXPECT_EQ(site.count, 1);
    EXPECT_DOUBLE_EQ(site.perStep, 0.5);
    EXPECT_NEAR(site.waitMs, 0.009, 1e-12);
    EXPECT_NEAR(site.bubbleMs, 0.205, 1e-12);
    EXPECT_NEAR(site.sharePct, 20.5, 1e-9); // of the mean step, 1 ms
    EXPECT_NEAR(r.taxPct, 20.5, 1e-9); // 0.41 ms of bubble in 2 ms of steps

    // Step 2: one launch of 10 µs, K4 1050-1250 inside it.
    EXPECT_EQ(r.steps[1].launches, 1);
    EXPECT_NEAR(r.steps[1].gpuBusyMs, 0.200, 1e-12);
    EXPECT_EQ(r.steps[1].syncs, 0);
    // Regime: D = 0.02 ms, G = 0.305 ms, H = mean(1 - 0.03 - 0.018, 1 - 0.01) = 0.971 ms.
    EXPECT_NEAR(r.regime.dMs, 0.020, 1e-12);
    EXPECT_NEAR(r.regime.gMs, 0.305, 1e-12);
    EXPECT_NEAR(r.regime.hMs, 0.971, 1e-12);
    EXPECT_DOUBLE_EQ(r.regime.syncsPerStep, 0.5);
    EXPECT_EQ(r.regime.label, "dispatch_bound");
    EXPECT_NE(r.regime.sentence.find("Dispatch-bound"), std::string::npos);

    EXPECT_EQ(r.source.device, "NVIDIA H200");
    EXPECT_EQ(r.source.cudaVersion.value_or(""), "13.0");
    // Nothing is missing from this trace; the one note says that its host times are profiled ones.
    ASSERT_EQ(r.notes.size(), 1u) << r.notes.back();
    EXPECT_EQ(r.notes[0].rfind("host times include the profiler's own cost", 0), 0u) << r.notes[0];
}

TEST(TraceAnalysis, LaunchesJoinedByCorrelationNotByOrder)
{
    // Two launches whose kernels run in the other order: correlation 2's kernel starts first.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000).kernel(10, 5, 1, 500, 10).kernel(20, 5, 2, 100, 10);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.lag.size(), 2u);
    EXPECT_NEAR(r.lag[0].lagMs, 0.490, 1e-12); // 500 - 10
    EXPECT_NEAR(r.lag[1].lagMs, 0.080, 1e-12); // 100 - 20
    EXPECT_NEAR(r.steps[0].lagMs, 0.080, 1e-12); // at the step's last launch
}

TEST(TraceAnalysis, NoStepsIsOneWindowSaidInTheNotes)
{
    TraceBuilder b;
    b.kernel(100, 10, 1, 150, 100).kernel(300, 10, 2, 400, 100);
    const TraceReport r = analyseTrace(b.build());
    EXPECT_FALSE(r.stepsMarked);
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_EQ(r.steps[0].name, "whole trace");
    EXPECT_NEAR(r.steps[0].stepMs, 0.400, 1e-12); // 100 (first launch) to 500 (last kernel's end)
    EXPECT_EQ(r.steps[0].launches, 2);
    EXPECT_NEAR(r.steps[0].gpuBusyMs, 0.200, 1e-12);
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes[0].find("one window for the whole trace"), std::string::npos);
    EXPECT_NE(std::find(r.notes.begin(), r.notes.end(), "recorded without with_stack=True: sites named by op only"),
        r.notes.end());
}

TEST(TraceAnalysis, AStackedCaptureWithoutFramesIsNotSaidToLackTheFlag)
{
    // The probe asks for stacks; a torch without Kineto exports none, and its converted trace says
    // with_stack: true. The note says what is missing, not that the flag was.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000).kernel(100, 10, 1, 200, 100);
    KinetoTrace trace = b.build();
    trace.info.withStack = true;
    const TraceReport r = analyseTrace(trace);
    const auto said = [&](const std::string& part) {
        return std::any_of(
            r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
    };
    EXPECT_FALSE(said("recorded without with_stack=True"));
    EXPECT_TRUE(said("recorded with_stack=True, but the trace holds no Python frames"));
}

TEST(TraceAnalysis, KernelsWithoutLaunchCountAsGpuBusyAndAreNoted)
{
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000)
        .kernel(100, 10, 1, 200, 100)
        .add(TraceEventKind::Kernel, "nccl", 250, 200, TraceBuilder::stream8, 99) // launched before the trace
        .add(TraceEventKind::Launch, "cudaLaunchKernel", 900, 10, TraceBuilder::host, 50); // kernel after it
    const TraceReport r = analyseTrace(b.build());
    EXPECT_NEAR(r.steps[0].gpuBusyMs, 0.250, 1e-12); // union of 200-300 and 250-450
    EXPECT_EQ(r.steps[0].launches, 2);
    EXPECT_EQ(r.queues.size(), 1u); // only stream 7 has a joined launch
    const auto has = [&](const std::string& words) {
        return std::any_of(
            r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; });
    };
    EXPECT_TRUE(has("1 GPU op(s) without a launch"));
    EXPECT_TRUE(has("1 launch(es) without a GPU op"));
}

TEST(TraceAnalysis, NoGpuEventsIsNoted)
{
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 100).op("aten::add", 10, 20);
    const TraceReport r = analyseTrace(b.build());
    EXPECT_DOUBLE_EQ(r.steps[0].gpuBusyMs, 0);
    EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(),
        [](const std::string& n) { return n.find("no GPU events") != std::string::npos; }));
}

TEST(TraceAnalysis, GpuBusyClippedToEachStep)
{
    // One kernel 900-1100 across the boundary of two 1000 µs steps: 100 µs in each.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000).step("ProfilerStep#1", 1000, 1000).kernel(10, 10, 1, 900, 200);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_NEAR(r.steps[0].gpuBusyMs, 0.100, 1e-12);
    EXPECT_NEAR(r.steps[1].gpuBusyMs, 0.100, 1e-12);
    EXPECT_EQ(r.steps[1].launches, 0);
    EXPECT_EQ(r.steps[0].queueMax, 1); // queued at 10, started at 900
    EXPECT_EQ(r.steps[1].queueMax, 0);
}
