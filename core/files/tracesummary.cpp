#include "core/files/tracesummary.h"

#include "core/files/resultsjson.h"

#include <filesystem>

namespace synctax {

namespace {

template <typename T> nlohmann::json orNull(const std::optional<T>& v) { return v ? nlohmann::json(*v) : nullptr; }

nlohmann::json stepJson(const TraceStep& s)
{
    return {
        { "name", s.name },
        { "start_ns", s.startNs },
        { "end_ns", s.endNs },
        { "step_ms", s.stepMs },
        { "dispatch_ms", s.dispatchMs },
        { "gpu_busy_ms", s.gpuBusyMs },
        { "launches", s.launches },
        { "syncs", s.syncs },
        { "sync_wait_ms", s.syncWaitMs },
        { "sync_bubble_ms", s.syncBubbleMs },
        { "tax_pct", s.taxPct },
        { "queue_max", s.queueMax },
        { "lag_ms", s.lagMs },
        { "idle_ms",
            { { "host_wait", s.idleHostWaitMs }, { "kernel_wait", s.idleKernelWaitMs }, { "other", s.idleOtherMs } } },
    };
}

nlohmann::json siteJson(const TraceSyncSite& s)
{
    return {
        { "op", s.op },
        { "python", orNull(s.python) },
        { "count", s.count },
        { "per_step", s.perStep },
        { "wait_ms", s.waitMs },
        { "bubble_ms", s.bubbleMs },
        { "share_pct", s.sharePct },
    };
}

nlohmann::json syncJson(const TraceSync& s)
{
    return {
        { "start_ns", s.startNs },
        { "end_ns", s.endNs },
        { "api", s.api },
        { "wait_ms", s.waitMs },
        { "bubble_ms", s.bubbleMs },
        { "step", s.step >= 0 ? nlohmann::json(s.step) : nullptr },
        { "site", s.site >= 0 ? nlohmann::json(s.site) : nullptr },
    };
}

} // namespace

nlohmann::json toJson(const TraceReport& r)
{
    nlohmann::json j;
    j["schema"] = traceSummarySchema;
    j["source"] = {
        { "file", r.source.file },
        { "torch_version", orNull(r.source.torchVersion) },
        { "cuda_version", orNull(r.source.cudaVersion) },
        { "device", r.source.device.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.source.device) },
        { "rank", orNull(r.source.rank) },
        { "world_size", orNull(r.source.worldSize) },
    };
    j["steps_marked"] = r.stepsMarked;
    j["mean_step_ms"] = r.meanStepMs;
    j["tax_pct"] = r.taxPct;
    j["regime"] = {
        { "d_ms", r.regime.dMs },
        { "g_ms", r.regime.gMs },
        { "h_ms", r.regime.hMs },
        { "syncs_per_step", r.regime.syncsPerStep },
        { "label", r.regime.label },
        { "sentence", r.regime.sentence },
    };
    j["steps"] = nlohmann::json::array();
    for (const auto& s : r.steps)
        j["steps"].push_back(stepJson(s));
    j["sync_sites"] = nlohmann::json::array();
    for (const auto& s : r.sites)
        j["sync_sites"].push_back(siteJson(s));
    j["syncs"] = nlohmann::json::array();
    for (const auto& s : r.syncs)
        j["syncs"].push_back(syncJson(s));
    j["queues"] = nlohmann::json::array();
    for (const auto& q : r.queues)
        j["queues"].push_back({ { "device", q.device }, { "stream", q.stream }, { "max", q.max }, { "mean", q.mean } });
    j["notes"] = r.notes;
    return j;
}

std::string traceSummaryFileName(const std::string& tracePath)
{
    std::string stem = std::filesystem::path(tracePath).filename().string();
    for (const std::string tail : { ".gz", ".json", ".pt.trace" }) {
        if (stem.size() > tail.size() && stem.compare(stem.size() - tail.size(), tail.size(), tail) == 0)
            stem.resize(stem.size() - tail.size());
    }
    return "trace-summary-" + stem + ".json";
}

void writeTraceSummary(const std::string& path, const TraceReport& report)
{
    writeJsonFileAtomically(path, toJson(report));
}

} // namespace synctax
