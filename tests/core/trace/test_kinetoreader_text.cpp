// Hand-built traces: every expected value below is read off the JSON text of the test itself.
#include "core/trace/kinetoreader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>

using namespace synctax;

namespace {

KinetoTrace readText(const std::string& json)
{
    TraceReadResult r = readKinetoTraceText(json, "test.json");
    EXPECT_FALSE(r.error) << r.error->format();
    return r.trace ? std::move(*r.trace) : KinetoTrace {};
}

std::string event(const std::string& cat, const std::string& name, const std::string& ts, const std::string& dur,
    const std::string& rest = R"("pid": 10, "tid": 11)")
{
    return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "ts": )" + ts + R"(, "dur": )" + dur
        + ", " + rest + "}";
}

std::string traceOf(
    const std::vector<std::string>& events, const std::string& before = "", const std::string& after = "")
{
    std::string text = "{" + before + R"("traceEvents": [)";
    for (std::size_t i = 0; i < events.size(); ++i)
        text += (i ? ",\n" : "\n") + events[i];
    return text + "]" + after + "}";
}

} // namespace

TEST(KinetoReaderText, BaseTimeIsAddedBeforeOrAfterTraceEvents)
{
    const std::vector<std::string> events = { event("cpu_op", "aten::add", "5269671049862.987", "123.776") };
    const KinetoTrace before = readText(traceOf(events, R"("baseTimeNanoseconds": 1790857026000000000, )"));
    const KinetoTrace after = readText(traceOf(events, "", R"(, "baseTimeNanoseconds": 1790857026000000000)"));
    const KinetoTrace none = readText(traceOf(events));
    ASSERT_EQ(before.events.size(), 1u);
    ASSERT_EQ(after.events.size(), 1u);
    // 1790857026000000000 + 5269671049862987
    EXPECT_EQ(before.events[0].startNs, 1796126697049862987);
    EXPECT_EQ(after.events[0].startNs, 1796126697049862987);
    EXPECT_EQ(none.events[0].startNs, 5269671049862987);
    EXPECT_EQ(before.events[0].durationNs, 123776);
}

TEST(KinetoReaderText, ClassifiesByCategoryAndName)
{
    const std::string corr = R"("pid": 10, "tid": 11, "args": {"correlation": 5})";
    const std::vector<std::string> events = {
        event("cpu_op", "aten::mm", "1", "1"),
        event("python_function", "train.py(10): step", "2", "1"),
        event("user_annotation", "forward", "3", "1"),
        event("user_annotation", "ProfilerStep#4", "4", "1"),
        event("gpu_user_annotation", "ProfilerStep#4", "4", "1"),
        event("cuda_runtime", "cudaLaunchKernelExC", "5", "1", corr),
        event("cuda_driver", "cuLaunchKernelEx", "6", "1", corr),
        event("cuda_runtime", "cudaMemcpyAsync", "7", "1", corr),
        event("cuda_runtime", "cudaMemsetAsync", "8", "1", corr),
        event("cuda_runtime", "cudaGraphLaunch", "9", "1", corr),
        event("cuda_runtime", "cudaStreamSynchronize", "10", "1"),
        event("cuda_runtime", "cudaDeviceSynchronize", "11", "1"),
        event("cuda_runtime", "cudaEventSynchronize", "12", "1"),
        event("cuda_runtime", "cudaMalloc", "13", "1"),
        event("ac2g", "ac2g", "14", "1"),
    };
    const KinetoTrace trace = readText(traceOf(events));
    using K = TraceEventKind;
    const std::vector<K> expected = { K::CpuOp, K::PythonFunction, K::Annotation, K::Step, K::Launch, K::Launch,
        K::Launch, K::Launch, K::Launch, K::Sync, K::Sync, K::Sync, K::Runtime };
    ASSERT_EQ(trace.events.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(trace.events[i].kind, expected[i]) << trace.names[trace.events[i].name];
    EXPECT_EQ(trace.eventsInFile, events.size());
    EXPECT_EQ(trace.events[4].correlation, 5);
    EXPECT_EQ(trace.events[0].correlation, -1); // a cpu_op keeps none
    EXPECT_TRUE(trace.info.withStack); // a python_function was read
}

TEST(KinetoReaderText, GpuWorkIsPlacedByDeviceAndStreamNotTid)
{
    const std::vector<std::string> events = {
        event("kernel", "k1", "1", "1", R"("pid": 0, "tid": 99, "args": {"device": 1, "stream": 7, "correlation": 3})"),
        event("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", "2", "1",
            R"("pid": 0, "tid": 98, "args": {"device": 1, "stream": 7, "correlation": 4})"),
        event("gpu_memset", "Memset (Device)", "3", "1", R"("pid": 0, "tid": 7, "args": {"device": 1, "stream": 20})"),
        event("cuda_sync", "Context Sync", "4", "1", R"("pid": 0, "tid": -1, "args": {"device": 1, "stream": -1})"),
    };
    const KinetoTrace trace = readText(traceOf(events));
    ASSERT_EQ(trace.events.size(), 4u);
    EXPECT_EQ(trace.events[0].lane, trace.events[1].lane);
    EXPECT_NE(trace.events[0].lane, trace.events[2].lane);
    const TraceLane& lane = trace.lanes[trace.events[0].lane];
    EXPECT_TRUE(lane.gpu);
    EXPECT_EQ(lane.pid, 1);
    EXPECT_EQ(lane.tid, 7);
    EXPECT_EQ(lane.label, "GPU 1 stream 7");
    EXPECT_EQ(trace.events[1].kind, TraceEventKind::Memcpy);
    EXPECT_EQ(trace.events[1].correlation, 4);
    EXPECT_EQ(trace.events[2].correlation, -1);
    EXPECT_EQ(trace.events[3].kind, TraceEventKind::CudaSync);
    EXPECT_EQ(trace.lanes[trace.events[3].lane].tid, -1);
}

TEST(KinetoReaderText, SortedByStartTheLongerFirstOnATie)
{
    const std::vector<std::string> events = {
        event("cpu_op", "inner", "10", "2"),
        event("cpu_op", "later", "20", "1"),
        event("user_annotation", "ProfilerStep#1", "10", "30"),
        event("cpu_op", "earliest", "5", "1"),
    };
    const KinetoTrace trace = readText(traceOf(events));
    ASSERT_EQ(trace.events.size(), 4u);
    const std::vector<std::string> order = { "earliest", "ProfilerStep#1", "inner", "later" };
    for (std::size_t i = 0; i < order.size(); ++i)
        EXPECT_EQ(trace.names[trace.events[i].name], order[i]);
}

TEST(KinetoReaderText, TopLevelKeysInAnyOrder)
{
    const std::string meta = R"("distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
        "deviceProperties": [{"id": 1, "name": "GPU B"}, {"id": 0, "name": "GPU A"}],
        "cuda_runtime_version": 12040, "cuda_driver_version": 12050, "with_stack": false, "schemaVersion": 1)";
    const std::vector<std::string> events = { event("cpu_op", "aten::add", "1", "1") };
    for (const KinetoTrace& trace :
        { readText(traceOf(events, meta + ", ")), readText(traceOf(events, "", ", " + meta)) }) {
        EXPECT_EQ(trace.info.rank, 3);
        EXPECT_EQ(trace.info.worldSize, 8);
        EXPECT_EQ(trace.info.distributedBackend, "nccl");
        EXPECT_EQ(trace.info.devices, (std::vector<std::string> { "GPU A", "GPU B" }));
        EXPECT_EQ(trace.info.cudaRuntimeVersion, 12040);
        EXPECT_EQ(trace.info.cudaDriverVersion, 12050);
        EXPECT_EQ(trace.info.schemaVersion, 1);
        EXPECT_FALSE(trace.info.withStack);
    }
}

TEST(KinetoReaderText, ThreadNameMetadataLabelsHostLanes)
{
    const std::vector<std::string> events = {
        R"j({"name": "thread_name", "ph": "M", "ts": 1, "pid": 10, "tid": 11, "args": {"name": "thread 11 (python3)"}})j",
        event("cpu_op", "aten::add", "1", "1"),
        event("cpu_op", "aten::mul", "2", "1", R"("pid": 10, "tid": 12)"),
        R"({"ph": "i", "name": "instant", "ts": 3, "pid": 10, "tid": 11, "s": "t"})",
    };
    const KinetoTrace trace = readText(traceOf(events));
    ASSERT_EQ(trace.events.size(), 2u);
    EXPECT_EQ(trace.lanes[trace.events[0].lane].label, "thread 11 (python3)");
    EXPECT_EQ(trace.lanes[trace.events[1].lane].label, "thread 12");
    EXPECT_EQ(trace.eventsInFile, 4u);
}

TEST(KinetoReaderText, ErrorsNameTheByteAndTheEvent)
{
    // byte 61 is the '"' that opens "oops" in the third event (index 2), as text.find confirms.
    const std::string text = R"({"traceEvents": [{"ph": "i"}, {"ph": "i"}, {"ph": "X", "ts": "oops"}]})";
    ASSERT_EQ(text.find("\"oops\""), 61u);
    const TraceReadResult r = readKinetoTraceText(text, "t.json");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->format(), "t.json: byte 61, event 2: expected a number for \"ts\", found a string");
    EXPECT_EQ(r.error->byteOffset, 61u);
    EXPECT_EQ(r.error->eventIndex, 2);
}

TEST(KinetoReaderText, DeepNestingIsNotAStackOverflow)
{
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const TraceReadResult r = readKinetoTraceText(R"({"x": )" + deep + R"(, "traceEvents": []})", "deep.json");
    EXPECT_FALSE(r.error) << r.error->format();
}

TEST(KinetoReaderText, ProgressReportsTheFileAndACancelStopsTheRead)
{
    const std::string path
        = SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/ddp-gloo-2ranks/rank1.1796126751598714278.pt.trace.json.gz";
    const auto size = std::filesystem::file_size(path);
    std::vector<TraceReadProgress> seen;
    TraceReadOptions options;
    options.progress = [&](const TraceReadProgress& p) { seen.push_back(p); };
    const TraceReadResult full = readKinetoTrace(path, options);
    ASSERT_TRUE(full.trace);
    ASSERT_GE(seen.size(), 2u); // 1.9 MB: a call at the first MiB and at the end
    EXPECT_EQ(seen.back().fileBytesRead, size);
    EXPECT_EQ(seen.back().fileBytes, size);
    EXPECT_EQ(seen.back().eventsRead, full.trace->eventsInFile);

    // A cancel raised at the first progress call stops the read there: no trace, no error.
    std::atomic<bool> cancel { false };
    std::size_t calls = 0;
    options.cancel = &cancel;
    options.progress = [&](const TraceReadProgress&) {
        ++calls;
        cancel = true;
    };
    const TraceReadResult stopped = readKinetoTrace(path, options);
    EXPECT_TRUE(stopped.cancelled);
    EXPECT_FALSE(stopped.trace);
    EXPECT_FALSE(stopped.error);
    EXPECT_EQ(calls, 1u);
}

TEST(KinetoReaderText, ACancelRaisedBeforeTheReadStopsItAtOnce)
{
    std::atomic<bool> cancel { true };
    std::size_t calls = 0;
    TraceReadOptions options;
    options.cancel = &cancel;
    options.progress = [&](const TraceReadProgress&) { ++calls; };
    const TraceReadResult r
        = readKinetoTrace(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz", options);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.trace);
    EXPECT_FALSE(r.error);
    EXPECT_EQ(calls, 0u); // not a byte was read
}

TEST(KinetoReaderText, ControlCharactersInNamesAreEscaped)
{
    // Names reach terminals: an escape sequence or a carriage return in one is shown, not acted on.
    const KinetoTrace trace = readText(
        traceOf({ event("cpu_op", R"(aten::\u001b[31mitem\r)", "10", "5"), event("cpu_op", "aten::mm", "20", "5") }));
    ASSERT_EQ(trace.events.size(), 2u);
    EXPECT_EQ(trace.names[trace.events[0].name], "aten::\\x1b[31mitem\\x0d");
    EXPECT_EQ(trace.names[trace.events[1].name], "aten::mm");
}
