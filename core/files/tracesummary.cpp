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

nlohmann::json toJson(const ImportedLoop& loop, const WhatIf& w)
{
    nlohmann::json j;
    j["host_work_us"] = w.hostWorkUs;
    j["host_work_at"] = w.hostWorkBeforeSync ? "before_sync" : "step_start";
    const bool available = loop.available && !w.rows.empty();
    j["absent_reason"]
        = available ? nlohmann::json(nullptr) : nlohmann::json(loop.reason.empty() ? "no loop to replay" : loop.reason);
    j["model"] = available ? nlohmann::json(w.model) : nullptr;
    j["uncertainty_pct"] = available ? nlohmann::json(w.uncertaintyPct) : nullptr;
    j["calibration"] = available
        ? nlohmann::json({ { "host_scale", loop.calibration.hostScale }, { "gpu_gap_us", loop.calibration.gpuGapUs },
            { "gpu_scale", loop.calibration.gpuScale }, { "how", loop.calibration.how } })
        : nlohmann::json(nullptr);
    j["sync_us"] = available ? nlohmann::json(loop.costs.syncUs) : nullptr;
    j["launches_per_step"] = available ? nlohmann::json(loop.base.ops.size()) : nullptr;
    j["recorded_syncs_per_step"] = available ? nlohmann::json(loop.recordedSyncsPerStep) : nullptr;
    j["host_events_per_step"] = available ? nlohmann::json(loop.hostEventsPerStep) : nullptr;
    j["profiled_host_ms"] = available ? nlohmann::json(loop.profiledHostMs) : nullptr;
    j["rows"] = nlohmann::json::array();
    for (const WhatIfRow& r : w.rows) {
        j["rows"].push_back({ { "style", r.style }, { "n", r.n > 0 ? nlohmann::json(r.n) : nullptr },
            { "step_ms", r.stepMs }, { "tax_pct", r.taxPct } });
    }
    return j;
}

nlohmann::json toJson(const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf)
{
    nlohmann::json j = toJson(report);
    j["whatif"] = toJson(loop, whatIf);
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

void writeTraceSummary(
    const std::string& path, const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf)
{
    writeJsonFileAtomically(path, toJson(report, loop, whatIf));
}

} // namespace synctax
