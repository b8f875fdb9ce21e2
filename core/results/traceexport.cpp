#include "core/results/traceexport.h"

#include "core/results/resultsjson.h"
#include "core/text/format.h"

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

constexpr int tracePid = 1;

double micros(int64_t ns) { return double(ns) / 1000.0; }

// A float widened to double prints as 0.30000001192092896; a microsecond is finer than the lag is known.
double lagMs(const StepRecord& r) { return std::round(double(r.lagMs) * 1000.0) / 1000.0; }

std::string cellName(const std::vector<CellPlan>& cells, uint32_t cell, const SweptKeys& swept)
{
    if (cell < cells.size())
        return cells[cell].model + "/" + cells[cell].mode + "/" + cells[cell].style
            + sweepPointSuffix(swept, cells[cell]);
    return "cell " + std::to_string(cell);
}

const char* category(const StepRecord& r) { return r.round < 0 ? "warmup" : "measured"; }

nlohmann::json metadata(const char* name, int tid, nlohmann::json args)
{
    nlohmann::json event { { "ph", "M" }, { "name", name }, { "pid", tracePid }, { "args", std::move(args) } };
    if (tid > 0)
        event["tid"] = tid;
    return event;
}

nlohmann::json slice(std::string name, const char* cat, int tid, int64_t beginNs, int64_t endNs, nlohmann::json args)
{
    return { { "ph", "X" }, { "name", std::move(name) }, { "cat", cat }, { "pid", tracePid }, { "tid", tid },
        { "ts", micros(beginNs) }, { "dur", micros(std::max<int64_t>(0, endNs - beginNs)) },
        { "args", std::move(args) } };
}

nlohmann::json counter(const char* name, int64_t atNs, double value)
{
    return { { "ph", "C" }, { "name", name }, { "pid", tracePid }, { "tid", traceGpuTid }, { "ts", micros(atNs) },
        { "args", { { "value", value } } } };
}

void emitThreadName(int tid, const char* name, int sortIndex, const std::function<void(const nlohmann::json&)>& emit)
{
    emit(metadata("thread_name", tid, { { "name", name } }));
    emit(metadata("thread_sort_index", tid, { { "sort_index", sortIndex } }));
}

// A block is a run of consecutive records of one cell and round whose step numbers rise.
struct Block {
    size_t first = 0;
    size_t last = 0;
};

std::vector<Block> blocksOf(const std::vector<StepRecord>& sorted)
{
    std::vector<Block> blocks;
    for (size_t i = 0; i < sorted.size(); ++i) {
        const StepRecord& r = sorted[i];
        const bool continues = !blocks.empty() && sorted[blocks.back().last].cell == r.cell
            && sorted[blocks.back().last].round == r.round && sorted[blocks.back().last].step < r.step;
        if (continues)
            blocks.back().last = i;
        else
            blocks.push_back({ i, i });
    }
    return blocks;
}

nlohmann::json otherData(const ExperimentResult* result)
{
    nlohmann::json data { { "generator", "synctax" } };
    if (result) {
        const Environment& env = result->environment;
        data["synctax_version"] = env.synctaxVersion;
        data["torch_version"] = env.torchVersion;
        data["device"] = env.device;
        data["device_name"] = env.deviceName;
        data["host"] = env.host;
        data["experiment"] = result->config.name;
        data["started_at"] = result->startedAt;
        data["stopped"] = result->stopped;
    }
    return data;
}

} // namespace

void forEachTraceEvent(const std::vector<StepRecord>& records, const std::vector<CellPlan>& cells,
    const ExperimentResult* result, const std::function<void(const nlohmann::json&)>& emit)
{
    // The ring hands records over block by block; sorting makes every thread's slices follow in time.
    std::vector<StepRecord> sorted = records;
    std::stable_sort(
        sorted.begin(), sorted.end(), [](const StepRecord& a, const StepRecord& b) { return a.startNs < b.startNs; });
    const bool anyGpu = std::any_of(sorted.begin(), sorted.end(), [](const StepRecord& r) { return r.gpuDoneNs >= 0; });
    const SweptKeys swept = result ? sweptKeys(result->config) : SweptKeys {};

    std::string process = "synctax";
    if (result && !result->environment.device.empty())
        process += " " + result->environment.device;
    emit(metadata("process_name", 0, { { "name", process } }));
    if (!sorted.empty()) {
        emitThreadName(traceBlocksTid, "blocks", 0, emit);
        emitThreadName(traceHostTid, "host", 1, emit);
    }
    if (anyGpu)
        emitThreadName(traceGpuTid, "gpu", 2, emit);

    for (const Block& block : blocksOf(sorted)) {
        const StepRecord& first = sorted[block.first];
        int64_t endNs = first.loggedNs;
        for (size_t i = block.first; i <= block.last; ++i)
            endNs = std::max({ endNs, sorted[i].loggedNs, sorted[i].gpuDoneNs });
        const int64_t steps = int64_t(block.last - block.first + 1);
        const double msPerStep = double(endNs - first.startNs) / 1e6 / double(steps);
        emit(slice(cellName(cells, first.cell, swept), category(first), traceBlocksTid, first.startNs, endNs,
            { { "round", first.round }, { "steps", steps }, { "ms_per_step", msPerStep } }));
    }

    for (const StepRecord& r : sorted) {
        emit(slice(cellName(cells, r.cell, swept), category(r), traceHostTid, r.startNs, r.loggedNs,
            { { "round", r.round }, { "step", r.step }, { "dispatch_us", micros(r.dispatchedNs - r.startNs) },
                { "log_us", micros(r.loggedNs - r.dispatchedNs) } }));
    }

    // A GPU executes a stream's work in order: a step can start no earlier than the previous one
    // finished, nor before the host began to queue it. The host's start, not its dispatch, because
    // kernels run while the rest of the step is still being launched.
    int64_t gpuFreeNs = 0;
    for (const StepRecord& r : sorted) {
        if (r.gpuDoneNs < 0)
            continue;
        const int64_t beginNs = std::max(gpuFreeNs, r.startNs);
        nlohmann::json args { { "round", r.round }, { "step", r.step } };
        if (r.lagMs >= 0)
            args["lag_ms"] = lagMs(r);
        if (r.queueSteps >= 0)
            args["queue_steps"] = r.queueSteps;
        emit(slice(cellName(cells, r.cell, swept), category(r), traceGpuTid, beginNs, std::max(beginNs, r.gpuDoneNs),
            std::move(args)));
        gpuFreeNs = std::max(gpuFreeNs, r.gpuDoneNs);
    }

    for (const StepRecord& r : sorted) {
        if (r.queueSteps >= 0)
            emit(counter(traceQueueCounter, r.dispatchedNs, r.queueSteps));
        if (r.lagMs >= 0)
            emit(counter(traceLagCounter, r.dispatchedNs, lagMs(r)));
    }
}

nlohmann::json chromeTrace(
    const std::vector<StepRecord>& records, const std::vector<CellPlan>& cells, const ExperimentResult* result)
{
    nlohmann::json events = nlohmann::json::array();
    forEachTraceEvent(records, cells, result, [&](const nlohmann::json& event) { events.push_back(event); });
    return { { "traceEvents", std::move(events) }, { "displayTimeUnit", "ms" }, { "otherData", otherData(result) } };
}

void writeChromeTrace(const std::string& path, const std::vector<StepRecord>& records,
    const std::vector<CellPlan>& cells, const ExperimentResult* result)
{
    writeFileAtomically(path, [&](std::ostream& out) {
        out << "{\"displayTimeUnit\":\"ms\",\"otherData\":" << otherData(result).dump() << ",\"traceEvents\":[\n";
        bool first = true;
        forEachTraceEvent(records, cells, result, [&](const nlohmann::json& event) {
            out << (first ? "" : ",\n") << event.dump();
            first = false;
        });
        out << "\n]}\n";
    });
}

} // namespace synctax
