#include "core/results/traceexport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace synctax;

namespace {

const std::vector<CellPlan> cells
    = { cellPlan(0, { { "tiny_mlp", "eager" }, "none" }), cellPlan(1, { { "tiny_mlp", "eager" }, "item" }) };

// `steps` steps of 1 ms each from `beginNs`: 0.2 ms to dispatch, 0.1 ms to log; with `gpu`, the GPU
// finishes each step 1.5 ms after its dispatch, so it falls behind and the queue grows.
std::vector<StepRecord> block(uint32_t cell, int round, int64_t beginNs, int steps, bool gpu)
{
    std::vector<StepRecord> records;
    for (int i = 0; i < steps; ++i) {
        StepRecord r;
        r.cell = cell;
        r.round = round;
        r.step = uint32_t(i);
        r.startNs = beginNs + i * 1'000'000;
        r.dispatchedNs = r.startNs + 200'000;
        r.loggedNs = r.dispatchedNs + 100'000;
        if (gpu) {
            r.gpuDoneNs = r.dispatchedNs + 1'500'000 + i * 100'000;
            r.lagMs = float(r.gpuDoneNs - r.dispatchedNs) / 1e6f;
            r.queueSteps = 1 + i / 2;
        }
        records.push_back(r);
    }
    return records;
}

std::vector<StepRecord> run(bool gpu)
{
    // Handed over out of order: the export sorts.
    std::vector<StepRecord> records = block(1, 0, 20'000'000, 4, gpu);
    const std::vector<StepRecord> first = block(0, 0, 10'000'000, 4, gpu);
    records.insert(records.end(), first.begin(), first.end());
    return records;
}

std::vector<nlohmann::json> events(const nlohmann::json& trace, const std::string& ph, int tid = -1)
{
    std::vector<nlohmann::json> found;
    for (const auto& e : trace.at("traceEvents")) {
        if (e.at("ph") == ph && (tid < 0 || e.value("tid", 0) == tid))
            found.push_back(e);
    }
    return found;
}

std::map<std::string, std::string> threadNames(const nlohmann::json& trace)
{
    std::map<std::string, std::string> names;
    for (const auto& e : events(trace, "M")) {
        if (e.at("name") == "thread_name")
            names[e.at("args").at("name").get<std::string>()] = std::to_string(e.at("tid").get<int>());
        if (e.at("name") == "process_name")
            names["process"] = e.at("args").at("name").get<std::string>();
    }
    return names;
}

// Slices on one thread follow each other without overlapping (viewers need them nested or apart).
void expectOrderedSlices(const std::vector<nlohmann::json>& slices)
{
    for (size_t i = 0; i < slices.size(); ++i) {
        EXPECT_GE(slices[i].at("dur").get<double>(), 0.0);
        if (i > 0) {
            const double previousEnd = slices[i - 1].at("ts").get<double>() + slices[i - 1].at("dur").get<double>();
            EXPECT_GE(slices[i].at("ts").get<double>(), slices[i - 1].at("ts").get<double>());
            EXPECT_LE(previousEnd, slices[i].at("ts").get<double>() + 1e-9) << slices[i].dump();
        }
    }
}

} // namespace

TEST(TraceExport, GpuRunHasHostAndGpuSlicesCountersAndNames)
{
    ExperimentResult result;
    result.environment.device = "cuda:0";
    const nlohmann::json trace = chromeTrace(run(true), cells, &result);

    const auto names = threadNames(trace);
    EXPECT_EQ(names.at("process"), "synctax cuda:0");
    EXPECT_EQ(names.at("host"), std::to_string(traceHostTid));
    EXPECT_EQ(names.at("gpu"), std::to_string(traceGpuTid));
    EXPECT_EQ(names.at("blocks"), std::to_string(traceBlocksTid));
    int sortIndices = 0;
    for (const auto& e : events(trace, "M"))
        sortIndices += e.at("name") == "thread_sort_index";
    EXPECT_EQ(sortIndices, 3);

    const auto host = events(trace, "X", traceHostTid);
    const auto gpu = events(trace, "X", traceGpuTid);
    const auto blocks = events(trace, "X", traceBlocksTid);
    ASSERT_EQ(host.size(), 8u);
    ASSERT_EQ(gpu.size(), 8u);
    ASSERT_EQ(blocks.size(), 2u);
    expectOrderedSlices(host);
    expectOrderedSlices(gpu);
    expectOrderedSlices(blocks);

    // Microseconds: the first step starts at 10 ms and its host part lasts 0.3 ms.
    EXPECT_EQ(host[0].at("name"), "tiny_mlp/eager/none");
    EXPECT_DOUBLE_EQ(host[0].at("ts").get<double>(), 10'000.0);
    EXPECT_DOUBLE_EQ(host[0].at("dur").get<double>(), 300.0);
    EXPECT_DOUBLE_EQ(host[0].at("args").at("dispatch_us").get<double>(), 200.0);
    EXPECT_DOUBLE_EQ(host[0].at("args").at("log_us").get<double>(), 100.0);
    EXPECT_EQ(host[0].at("args").at("round"), 0);
    EXPECT_EQ(host[4].at("name"), "tiny_mlp/eager/item");

    // The GPU is idle before the first step: it starts with the host; the second step waits for the
    // first to complete (at 10 + 0.2 + 1.5 ms).
    EXPECT_DOUBLE_EQ(gpu[0].at("ts").get<double>(), 10'000.0);
    EXPECT_DOUBLE_EQ(gpu[0].at("dur").get<double>(), 1'700.0);
    EXPECT_DOUBLE_EQ(gpu[1].at("ts").get<double>(), 11'700.0);
    EXPECT_DOUBLE_EQ(gpu[1].at("args").at("lag_ms").get<double>(), 1.6);

    EXPECT_DOUBLE_EQ(blocks[0].at("ts").get<double>(), 10'000.0);
    EXPECT_EQ(blocks[0].at("args").at("steps"), 4);
    // The block ends when its last step's GPU work does.
    EXPECT_DOUBLE_EQ(blocks[0].at("ts").get<double>() + blocks[0].at("dur").get<double>(),
        gpu[3].at("ts").get<double>() + gpu[3].at("dur").get<double>());

    std::map<std::string, std::vector<nlohmann::json>> counters;
    for (const auto& e : events(trace, "C"))
        counters[e.at("name").get<std::string>()].push_back(e);
    ASSERT_EQ(counters.size(), 2u);
    ASSERT_EQ(counters.at(traceQueueCounter).size(), 8u);
    ASSERT_EQ(counters.at(traceLagCounter).size(), 8u);
    EXPECT_DOUBLE_EQ(counters.at(traceQueueCounter)[0].at("ts").get<double>(), 10'200.0);
    EXPECT_EQ(counters.at(traceQueueCounter)[3].at("args").at("value"), 2);
    EXPECT_DOUBLE_EQ(counters.at(traceLagCounter)[0].at("args").at("value").get<double>(), 1.5);
    for (const auto& [name, series] : counters) {
        for (size_t i = 1; i < series.size(); ++i)
            EXPECT_GE(series[i].at("ts").get<double>(), series[i - 1].at("ts").get<double>()) << name;
    }
}

TEST(TraceExport, CpuRunHasNoGpuSlicesOrCounters)
{
    const nlohmann::json trace = chromeTrace(run(false), cells, nullptr);
    EXPECT_EQ(threadNames(trace).count("gpu"), 0u);
    EXPECT_EQ(threadNames(trace).at("process"), "synctax");
    EXPECT_TRUE(events(trace, "X", traceGpuTid).empty());
    EXPECT_TRUE(events(trace, "C").empty());
    EXPECT_EQ(events(trace, "X", traceHostTid).size(), 8u);
    EXPECT_EQ(events(trace, "X", traceBlocksTid).size(), 2u);
}

TEST(TraceExport, WarmupStepsAreTheirOwnCategory)
{
    std::vector<StepRecord> records = block(0, -1, 0, 3, false);
    const std::vector<StepRecord> measured = block(0, 0, 5'000'000, 3, false);
    records.insert(records.end(), measured.begin(), measured.end());
    const nlohmann::json trace = chromeTrace(records, cells, nullptr);
    const auto blocks = events(trace, "X", traceBlocksTid);
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].at("cat"), "warmup");
    EXPECT_EQ(blocks[1].at("cat"), "measured");
}

TEST(TraceExport, NoRecordsIsAValidTraceWithOnlyTheProcessName)
{
    const nlohmann::json trace = chromeTrace({}, cells, nullptr);
    ASSERT_EQ(trace.at("traceEvents").size(), 1u);
    EXPECT_EQ(trace.at("traceEvents")[0].at("name"), "process_name");
}

TEST(TraceExport, WrittenFileIsTheSameTrace)
{
    // A plain file, no directory to remove: with python's LibTorch, std::filesystem::remove_all binds
    // to a copy inside libtorch.so built by another compiler, and crashes (seen on the GPU machine).
    const std::string path = (std::filesystem::temp_directory_path() / "synctax-test-trace.json").string();
    ExperimentResult result;
    result.environment.device = "cuda:0";
    result.config.name = "sample";
    writeChromeTrace(path, run(true), cells, &result);

    std::ifstream in(path);
    const nlohmann::json written = nlohmann::json::parse(in);
    EXPECT_EQ(written, chromeTrace(run(true), cells, &result));
    EXPECT_EQ(written.at("otherData").at("experiment"), "sample");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::remove(path.c_str());
}

TEST(TraceExport, UnwritablePathThrows)
{
    EXPECT_THROW(writeChromeTrace("/nonexistent-dir/trace.json", run(false), cells, nullptr), std::runtime_error);
}
