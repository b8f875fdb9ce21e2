#include "core/trace/tracesyncs.h"

#include "core/trace/tracebubble.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

namespace synctax {

namespace {

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool isBlockingCopy(const KinetoTrace& trace, const TraceEvent& launch, const TraceEvent* gpu)
{
    if (!gpu || gpu->kind != TraceEventKind::Memcpy || trace.names[launch.name] != "cudaMemcpyAsync")
        return false;
    // A DtoH copy into pinned memory returns at once; into pageable memory it returns when done.
    const std::string& copy = trace.names[gpu->name];
    return copy.find("DtoH") != std::string::npos && copy.find("Pageable") != std::string::npos;
}

// Open events on one host thread, enclosing the events that follow in start order.
struct LaneStacks {
    std::vector<std::int32_t> ops;
    std::vector<std::int32_t> frames;
};

void closeEnded(const KinetoTrace& trace, std::vector<std::int32_t>& stack, std::int64_t ns)
{
    while (!stack.empty() && trace.events[size_t(stack.back())].endNs() <= ns)
        stack.pop_back();
}

bool encloses(const TraceEvent& outer, const TraceEvent& inner) { return outer.endNs() >= inner.endNs(); }

} // namespace

bool isUserPythonFrame(const std::string& name)
{
    const size_t paren = name.find('(');
    if (paren == std::string::npos || paren == 0 || name.find("): ", paren) == std::string::npos)
        return false;
    const std::string file = name.substr(0, paren);
    return file[0] != '<' && !startsWith(file, "torch/") && file.find("/torch/") == std::string::npos
        && file.find("site-packages") == std::string::npos && file.find("dist-packages") == std::string::npos
        && file.find("/lib/python") == std::string::npos;
}

std::string causingOp(const std::vector<std::string>& chain, const std::string& api, int* chosen)
{
    static const std::array<const char*, 8> userFacing { "aten::item", "aten::nonzero", "aten::is_nonzero",
        "aten::tolist", "aten::to", "aten::_to_copy", "aten::copy_", "aten::_local_scalar_dense" };
    for (size_t i = 0; i < chain.size(); ++i) {
        if (std::find(userFacing.begin(), userFacing.end(), chain[i]) != userFacing.end()) {
            if (chosen)
                *chosen = int(i);
            return chain[i];
        }
    }
    if (!chain.empty()) {
        if (chosen)
            *chosen = int(chain.size()) - 1;
        return chain.back();
    }
    if (chosen)
        *chosen = -1;
    return api == "cudaDeviceSynchronize" ? "torch.cuda.synchronize" : api;
}

std::vector<FoundSync> findSyncs(const KinetoTrace& trace, const TraceJoin& join)
{
    // Host calls that CUPTI saw synchronize (cuda_sync records carry the call's correlation).
    std::unordered_map<std::int64_t, std::int64_t> cudaSyncDevice;
    for (const auto& e : trace.events) {
        if (e.kind == TraceEventKind::CudaSync && e.correlation >= 0)
            cudaSyncDevice.emplace(e.correlation, trace.lanes[e.lane].pid);
    }
    std::unordered_map<std::uint32_t, LaneStacks> stacks;
    std::unordered_map<std::uint32_t, std::int64_t> lastDevice; // per host thread: the GPU it last launched on
    std::unordered_map<std::int32_t, size_t> syncOfOp; // causing op event -> its sync
    std::vector<FoundSync> found;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent& e = trace.events[i];
        if (trace.lanes[e.lane].gpu)
            continue;
        LaneStacks& lane = stacks[e.lane];
        closeEnded(trace, lane.ops, e.startNs);
        closeEnded(trace, lane.frames, e.startNs);
        const TraceEvent* gpu = e.kind == TraceEventKind::Launch ? join.gpuOf(trace, std::int32_t(i)) : nullptr;
        if (gpu)
            lastDevice[e.lane] = trace.lanes[gpu->lane].pid;
        const std::string& name = trace.names[e.name];
        const auto cupti = cudaSyncDevice.find(e.correlation);
        const bool driverSync = e.kind == TraceEventKind::Runtime && cupti != cudaSyncDevice.end()
            && name.find("Synchronize") != std::string::npos;
        const bool blockingCopy = e.kind == TraceEventKind::Launch && isBlockingCopy(trace, e, gpu);
        if (e.kind == TraceEventKind::CpuOp)
            lane.ops.push_back(std::int32_t(i));
        else if (e.kind == TraceEventKind::PythonFunction)
            lane.frames.push_back(std::int32_t(i));
        if (e.kind != TraceEventKind::Sync && !driverSync && !blockingCopy)
            continue;

        std::vector<std::int32_t> chain;
        std::vector<std::string> chainNames;
        for (std::int32_t op : lane.ops) {
            if (encloses(trace.events[size_t(op)], e)) {
                chain.push_back(op);
                chainNames.push_back(trace.names[trace.events[size_t(op)].name]);
            }
        }
        int chosen = -1;
        const std::string op = causingOp(chainNames, name, &chosen);
        const std::string api = blockingCopy ? "blocking cudaMemcpyAsync (DtoH pageable)" : name;
        const std::int32_t opEvent = chosen >= 0 ? chain[size_t(chosen)] : -1;
        const auto merged = opEvent >= 0 ? syncOfOp.find(opEvent) : syncOfOp.end();
        if (merged != syncOfOp.end()) {
            TraceSync& s = found[merged->second].sync;
            s.endNs = std::max(s.endNs, e.endNs());
            s.waitMs += nsToMs(e.durationNs);
            s.api += " + " + api;
            continue;
        }
        FoundSync f;
        f.op = op;
        f.sync.startNs = e.startNs;
        f.sync.endNs = e.endNs();
        f.sync.waitMs = nsToMs(e.durationNs);
        f.sync.api = api;
        f.sync.hostLane = e.lane;
        if (blockingCopy)
            f.device = trace.lanes[gpu->lane].pid;
        else if (cupti != cudaSyncDevice.end())
            f.device = cupti->second;
        else if (lastDevice.count(e.lane))
            f.device = lastDevice[e.lane];
        for (auto it = lane.frames.rbegin(); it != lane.frames.rend(); ++it) {
            const TraceEvent& frame = trace.events[size_t(*it)];
            if (encloses(frame, e) && isUserPythonFrame(trace.names[frame.name])) {
                f.python = trace.names[frame.name];
                break;
            }
        }
        if (opEvent >= 0)
            syncOfOp.emplace(opEvent, found.size());
        found.push_back(std::move(f));
    }
    measureBubbles(trace, join, found);
    return found;
}

} // namespace synctax
