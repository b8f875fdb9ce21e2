// Real traces: every one under tests/data/traces/ reads, and for several of them the counts match
// what tests/data/traces/expected_counts.py (python3 json + gzip, no SyncTax code) computed over
// the same files.
#include "core/trace/kinetoreader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

using namespace synctax;

namespace {

const std::string kTraces = SYNCTAX_TEST_DATA "/traces";

struct Counts {
    std::size_t kernels = 0, launches = 0, syncs = 0, steps = 0, gpuLanes = 0;
};

Counts countsOf(const KinetoTrace& trace)
{
    Counts c;
    for (const TraceEvent& e : trace.events) {
        c.kernels += e.kind == TraceEventKind::Kernel;
        c.launches += e.kind == TraceEventKind::Launch;
        c.syncs += e.kind == TraceEventKind::Sync;
        c.steps += e.kind == TraceEventKind::Step;
    }
    std::set<std::uint32_t> gpuLanes;
    for (const TraceEvent& e : trace.events)
        if (isGpuKind(e.kind))
            gpuLanes.insert(e.lane);
    c.gpuLanes = gpuLanes.size();
    return c;
}

KinetoTrace read(const std::string& relative)
{
    TraceReadResult r = readKinetoTrace(kTraces + "/" + relative);
    EXPECT_FALSE(r.error) << r.error->format();
    EXPECT_TRUE(r.trace);
    return r.trace ? std::move(*r.trace) : KinetoTrace {};
}

struct Expected {
    const char* file;
    Counts counts;
    std::optional<std::int64_t> rank, worldSize;
    const char* device; // deviceProperties[0].name; nullptr when the trace has none
    std::int64_t firstNs; // base + ts * 1000 of the earliest kept event
    std::uint64_t eventsInFile;
};

// From `tests/data/traces/expected_counts.py FILE` (kernels launches syncs steps gpuLanes rank world device first
// inFile).
const Expected kExpected[] = {
    { "hta/critical_path_cuda_event_sync_event_sync_trace.json.gz", { 4, 5, 3, 1, 2 }, 0, std::nullopt,
        "NVIDIA A100-PG509-200", 1707417525509335000, 92 },
    { "hta/ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", { 4350, 6330, 1, 5, 1 }, 0, 1,
        "Tesla V100-SXM2-32GB", 1712195495502094565, 68692 },
    { "hta/triton_example_triton_example.json.gz", { 1, 1, 1, 1, 1 }, std::nullopt, std::nullopt,
        "NVIDIA A100-PG509-200", 1730156791096090100, 71 },
    { "hta/negative_queue_length_values_check_rank0.json.gz", { 6080, 6600, 76, 5, 6 }, 0, 16, "NVIDIA A100-SXM4-80GB",
        1683564901548726000, 108936 },
    { "hta/cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", { 0, 0, 0, 1, 0 }, 34, 300, nullptr,
        1721065959529876817, 30 },
    { "torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz", { 370, 390, 11, 10, 1 }, std::nullopt, std::nullopt,
        "NVIDIA H200", 1796126697048012775, 7014 },
    { "torch-2.11-h200/small_resnet-mixed.pt.trace.json.gz", { 2294, 2388, 18, 6, 1 }, std::nullopt, std::nullopt,
        "NVIDIA H200", 1796126726123196874, 32342 },
    { "torch-2.11-h200/tiny_mlp-item-nostack.json", { 185, 195, 7, 0, 1 }, std::nullopt, std::nullopt, "NVIDIA H200",
        1796126742572405271, 1893 },
    { "torch-2.11-h200/ddp-gloo-2ranks/rank0.1796126751115722631.pt.trace.json.gz", { 172, 228, 45, 4, 9 }, 0, 2,
        "NVIDIA H200", 1796126751041071377, 3921 },
};

} // namespace

TEST(KinetoReader, EveryTraceUnderTestDataReads)
{
    std::size_t read = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kTraces)) {
        const std::string path = entry.path().string();
        const bool trace = path.size() > 8 && (path.find(".json") != std::string::npos)
            && path.find("/bad/") == std::string::npos && path.find("/measurements/") == std::string::npos;
        if (!entry.is_regular_file() || !trace)
            continue;
        const TraceReadResult r = readKinetoTrace(path);
        EXPECT_FALSE(r.error) << r.error->format();
        ASSERT_TRUE(r.trace) << path;
        EXPECT_GT(r.trace->events.size(), 0u) << path;
        EXPECT_TRUE(std::is_sorted(r.trace->events.begin(), r.trace->events.end(),
            [](const TraceEvent& a, const TraceEvent& b) { return a.startNs < b.startNs; }))
            << path;
        ++read;
    }
    // 14 HTA traces, 10 torch 2.11 traces at the top, 3 in watch/, 2 in ddp-gloo-2ranks/, 6 in whatif/, 2 in
    // phases/, 1 in item-every-step/.
    EXPECT_EQ(read, 38u);
}

TEST(KinetoReader, CountsMatchAnIndependentPythonReading)
{
    for (const Expected& x : kExpected) {
        SCOPED_TRACE(x.file);
        const KinetoTrace trace = read(x.file);
        const Counts c = countsOf(trace);
        EXPECT_EQ(c.kernels, x.counts.kernels);
        EXPECT_EQ(c.launches, x.counts.launches);
        EXPECT_EQ(c.syncs, x.counts.syncs);
        EXPECT_EQ(c.steps, x.counts.steps);
        EXPECT_EQ(c.gpuLanes, x.counts.gpuLanes);
        EXPECT_EQ(trace.info.rank, x.rank);
        EXPECT_EQ(trace.info.worldSize, x.worldSize);
        if (x.device) {
            ASSERT_FALSE(trace.info.devices.empty());
            EXPECT_EQ(trace.info.devices[0], x.device);
        } else {
            EXPECT_TRUE(trace.info.devices.empty());
        }
        ASSERT_FALSE(trace.events.empty());
        EXPECT_EQ(trace.events.front().startNs, x.firstNs);
        EXPECT_EQ(trace.eventsInFile, x.eventsInFile);
    }
}

TEST(KinetoReader, FractionalMicrosecondsKeepTheirNanosecondDigits)
{
    // ns_resolution_trace: ts such as 1712195495502094.565 µs (no baseTimeNanoseconds).
    const KinetoTrace trace = read("hta/ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    EXPECT_FALSE(trace.info.baseTimeNs);
    std::size_t withNsDigits = 0;
    for (const TraceEvent& e : trace.events)
        withNsDigits += e.startNs % 1000 != 0;
    EXPECT_GT(withNsDigits, trace.events.size() / 2);
    EXPECT_EQ(trace.events.front().startNs % 1000, 565);
}

TEST(KinetoReader, BaseTimeNanosecondsIsAddedWhereverTheKeyComes)
{
    // torch 2.11 writes baseTimeNanoseconds before traceEvents, the triton example after it.
    const KinetoTrace before = read("torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz");
    ASSERT_TRUE(before.info.baseTimeNs);
    EXPECT_EQ(*before.info.baseTimeNs, 1790857026000000000);
    const KinetoTrace after = read("hta/triton_example_triton_example.json.gz");
    ASSERT_TRUE(after.info.baseTimeNs);
    EXPECT_EQ(*after.info.baseTimeNs, 1727743122000000000);
    // ProfilerStep#1 at ts 2413669096090.1 µs after the base.
    EXPECT_EQ(after.events.front().startNs, 1727743122000000000 + 2413669096090100);
    EXPECT_EQ(after.names[after.events.front().name], "ProfilerStep#1");
}

TEST(KinetoReader, MetadataOfTheTorch211Traces)
{
    const KinetoTrace trace = read("torch-2.11-h200/ddp-gloo-2ranks/rank0.1796126751115722631.pt.trace.json.gz");
    EXPECT_EQ(trace.info.schemaVersion, 1);
    EXPECT_EQ(trace.info.cudaRuntimeVersion, 13000);
    EXPECT_EQ(trace.info.cudaDriverVersion, 13000);
    EXPECT_EQ(trace.info.distributedBackend, "gloo");
    EXPECT_TRUE(trace.info.withStack);
    EXPECT_FALSE(trace.info.legacyCategories);
    const KinetoTrace noStack = read("torch-2.11-h200/tiny_mlp-item-nostack.json");
    EXPECT_FALSE(noStack.info.withStack);
}

TEST(KinetoReader, GpuLanesComeFromDeviceAndStreamAndHostLanesFromThreadNames)
{
    const KinetoTrace trace = read("torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz");
    std::size_t gpu = 0;
    for (const TraceLane& lane : trace.lanes) {
        if (lane.gpu) {
            ++gpu;
            EXPECT_EQ(lane.pid, 0); // args.device
            EXPECT_EQ(lane.tid, 7); // args.stream
            EXPECT_EQ(lane.label, "GPU 0 stream 7");
        }
    }
    EXPECT_EQ(gpu, 1u);
    // The trace's thread_name metadata (ph "M") for pid 443 tid 443: "thread 443 (python3)".
    bool named = false;
    for (const TraceLane& lane : trace.lanes)
        named = named || (!lane.gpu && lane.pid == 443 && lane.tid == 443 && lane.label == "thread 443 (python3)");
    EXPECT_TRUE(named);
}

TEST(KinetoReader, EveryKernelOfATorch211TraceHasItsLaunch)
{
    // tiny_mlp-item: every kernel's correlation is a launch's (expected_counts.py: 370 kernels, 390 launches).
    const KinetoTrace trace = read("torch-2.11-h200/tiny_mlp-item.pt.trace.json.gz");
    for (const std::string& note : trace.notes)
        EXPECT_EQ(note.find("without their launch"), std::string::npos) << note;
}
