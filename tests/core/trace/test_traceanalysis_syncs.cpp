#include "core/trace/traceanalysis.h"
#include "core/trace/tracesyncs.h"

#include "tracebuilder.h"

#include <gtest/gtest.h>

using namespace synctax;

// The expected values are worked out by hand from each hand-built event list (µs).

TEST(TraceSyncs, CopyIntoPageableMemoryAndStreamSyncAreOneSync)
{
    // x.cpu(): aten::to > aten::_to_copy > aten::copy_, whose cudaMemcpyAsync (120-200) copies into
    // pageable memory (it returns when the copy is done) and is followed by a stream sync (210-215).
    TraceBuilder b;
    b.step("ProfilerStep#3", 0, 1000)
        .kernel(10, 10, 1, 30, 100)
        .op("aten::to", 100, 200)
        .op("aten::_to_copy", 105, 190)
        .op("aten::copy_", 110, 180)
        .copy(120, 80, 5, 150, 40, "Pageable")
        .sync("cudaStreamSynchronize", 210, 5)
        .kernel(350, 10, 6, 400, 50);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.syncs.size(), 1u);
    const TraceSync& s = r.syncs[0];
    EXPECT_EQ(s.startNs, 120000);
    EXPECT_EQ(s.endNs, 215000);
    EXPECT_NEAR(s.waitMs, 0.085, 1e-12); // 80 + 5: both calls' durations
    EXPECT_NEAR(s.bubbleMs, 0.185, 1e-12); // 215 to the next kernel at 400
    EXPECT_EQ(s.api, "blocking cudaMemcpyAsync (DtoH pageable) + cudaStreamSynchronize");
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(r.sites[0].op, "aten::to");
    EXPECT_FALSE(r.sites[0].python.has_value());
    EXPECT_EQ(r.steps[0].syncs, 1);
}

TEST(TraceSyncs, PinnedCopyAloneIsNoSync)
{
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000).op("aten::copy_", 100, 50).copy(110, 10, 1, 130, 5, "Pinned");
    EXPECT_TRUE(analyseTrace(b.build()).syncs.empty());
}

TEST(TraceSyncs, NoBubbleWhileAnotherStreamOfTheDeviceIsBusy)
{
    // Stream 8 runs 100-900; the item's sync returns at 310, so the GPU never idled for it.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000)
        .kernel(50, 10, 1, 100, 800, TraceBuilder::stream8)
        .kernel(60, 10, 2, 70, 200)
        .op("aten::item", 280, 40)
        .op("aten::_local_scalar_dense", 285, 30)
        .copy(286, 4, 3, 290, 5, "Pinned")
        .sync("cudaStreamSynchronize", 291, 19)
        .kernel(400, 10, 4, 950, 10);
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.syncs.size(), 1u);
    EXPECT_DOUBLE_EQ(r.syncs[0].bubbleMs, 0);
    EXPECT_EQ(r.syncs[0].bubbleEndNs, r.syncs[0].endNs);
    EXPECT_EQ(r.queues.size(), 2u); // streams 7 and 8
    // G: the union 70-900 (stream 7's 70-270 inside stream 8's 100-900) plus 950-960.
    EXPECT_NEAR(r.steps[0].gpuBusyMs, 0.840, 1e-12);
}

TEST(TraceSyncs, DeviceSynchronizeWithoutAnOpIsTorchCudaSynchronize)
{
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000)
        .frame("train.py(20): <module>", 0, 1000)
        .frame("torch/cuda/__init__.py(1080): synchronize", 500, 100)
        .kernel(10, 10, 1, 100, 450)
        .sync("cudaDeviceSynchronize", 510, 45)
        .sync("cudaDeviceSynchronize", 1500, 5); // after the step: not counted in any site
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.syncs.size(), 2u);
    ASSERT_EQ(r.sites.size(), 1u);
    EXPECT_EQ(r.sites[0].op, "torch.cuda.synchronize");
    EXPECT_EQ(r.sites[0].python.value_or(""), "train.py(20): <module>");
    EXPECT_EQ(r.syncs[1].site, -1);
    EXPECT_EQ(r.syncs[1].step, -1);
    EXPECT_EQ(r.steps[0].syncs, 1);
    EXPECT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes[0].find("1 sync(s) outside every step"), std::string::npos);
}

TEST(TraceSyncs, SitesSortedByBubblePerStep)
{
    // Per step: a nonzero whose bubble is 100 µs, then an item whose bubble is 300 µs.
    TraceBuilder b;
    for (int i = 0; i < 2; ++i) {
        const double t = 1000.0 * i;
        const std::int64_t c = 10 * i;
        b.step("ProfilerStep#" + std::to_string(i), t, 1000)
            .op("aten::nonzero", t + 100, 50)
            .sync("cudaStreamSynchronize", t + 110, 20)
            .kernel(t + 200, 10, c + 1, t + 230, 100)
            .op("aten::item", t + 400, 50)
            .op("aten::_local_scalar_dense", t + 401, 48)
            .sync("cudaStreamSynchronize", t + 420, 20)
            .kernel(t + 700, 10, c + 2, t + 740, 100);
    }
    const TraceReport r = analyseTrace(b.build());
    ASSERT_EQ(r.sites.size(), 2u);
    EXPECT_EQ(r.sites[0].op, "aten::item"); // 440 -> 740: 300 µs per step
    EXPECT_NEAR(r.sites[0].bubbleMs, 0.300, 1e-12);
    EXPECT_EQ(r.sites[1].op, "aten::nonzero"); // 130 -> 230
    EXPECT_NEAR(r.sites[1].bubbleMs, 0.100, 1e-12);
    EXPECT_DOUBLE_EQ(r.sites[0].perStep, 1.0);
    EXPECT_EQ(r.syncs[0].site, 1); // the first sync in time is the nonzero, now second
    EXPECT_EQ(r.syncs[1].site, 0);
}

TEST(TraceSyncs, CausingOpWalksUpToTheUserFacingOp)
{
    int chosen = -2;
    EXPECT_EQ(
        causingOp({ "aten::is_nonzero", "aten::item", "aten::_local_scalar_dense" }, "x", &chosen), "aten::is_nonzero");
    EXPECT_EQ(chosen, 0);
    EXPECT_EQ(causingOp({ "Optimizer.step#SGD.step", "aten::item", "aten::_local_scalar_dense" }, "x", &chosen),
        "aten::item");
    EXPECT_EQ(chosen, 1);
    EXPECT_EQ(causingOp({ "aten::_local_scalar_dense" }, "x"), "aten::_local_scalar_dense");
    EXPECT_EQ(causingOp({ "aten::masked_select", "aten::mul" }, "x", &chosen), "aten::mul");
    EXPECT_EQ(chosen, 1);
    EXPECT_EQ(causingOp({}, "cudaDeviceSynchronize", &chosen), "torch.cuda.synchronize");
    EXPECT_EQ(chosen, -1);
    EXPECT_EQ(causingOp({}, "cudaStreamSynchronize"), "cudaStreamSynchronize");
}

TEST(TraceSyncs, UserPythonFrames)
{
    EXPECT_TRUE(isUserPythonFrame("train.py(87): <module>"));
    EXPECT_TRUE(isUserPythonFrame("scripts/record-traces.py(123): step"));
    EXPECT_FALSE(isUserPythonFrame("torch/_tensor.py(1225): __hash__"));
    EXPECT_FALSE(isUserPythonFrame("/usr/lib/python3/dist-packages/tqdm/std.py(1180): __iter__"));
    EXPECT_FALSE(isUserPythonFrame("/home/u/.venv/lib/python3.12/site-packages/torch/nn/functional.py(10): f"));
    EXPECT_FALSE(isUserPythonFrame("<built-in method item of Tensor object at 0x7f89aed16800>"));
    EXPECT_FALSE(isUserPythonFrame("aten::item"));
}

TEST(TraceSyncs, SyncOnAnotherThreadThanTheStepsIsNoted)
{
    // A communication thread (lane 3) syncs inside the step; the main thread does not.
    TraceBuilder b;
    b.step("ProfilerStep#0", 0, 1000).kernel(10, 10, 1, 100, 100);
    KinetoTrace t = b.build();
    t.lanes.push_back({ false, 100, 11, "thread 11" });
    t.names.push_back("cudaStreamSynchronize");
    TraceEvent sync;
    sync.kind = TraceEventKind::Sync;
    sync.name = std::uint32_t(t.names.size() - 1);
    sync.lane = 3;
    sync.startNs = 300000;
    sync.durationNs = 10000;
    t.events.push_back(sync);
    const TraceReport r = analyseTrace(t);
    ASSERT_EQ(r.syncs.size(), 1u);
    EXPECT_EQ(r.syncs[0].hostLane, 3u);
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes[0].find("1 sync(s) in steps on another thread"), std::string::npos);
}
