#include "core/trace/tracesummary.h"

#include "core/files/atomicwrite.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace synctax {

namespace {

// The trace's file name without .gz, .json and .pt.trace.
std::string stemOf(const std::string& tracePath)
{
    std::string stem = std::filesystem::path(tracePath).filename().string();
    for (const std::string tail : { ".gz", ".json", ".pt.trace" }) {
        if (stem.size() > tail.size() && stem.compare(stem.size() - tail.size(), tail.size(), tail) == 0)
            stem.resize(stem.size() - tail.size());
    }
    return stem;
}

// The names of the folders above a normalised absolute path, nearest first.
std::vector<std::string> foldersAbove(const std::filesystem::path& path)
{
    std::vector<std::string> folders;
    for (std::filesystem::path p = path.parent_path(); p.has_relative_path(); p = p.parent_path())
        folders.push_back(p.filename().string());
    return folders;
}

// The `depth` nearest folders, outermost first: "run-1" for .../run/1/x.json at depth 2.
std::string folderLabel(const std::vector<std::string>& folders, size_t depth)
{
    std::string label;
    for (size_t i = std::min(depth, folders.size()); i > 0; --i)
        label += (label.empty() ? "" : "-") + folders[i - 1];
    return label;
}

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
    j["uncertainty"] = available ? nlohmann::json(w.uncertaintyHow) : nullptr;
    j["calibrated"] = available ? nlohmann::json(w.calibrated) : nullptr;
    j["ignored"] = loop.ignored;
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
        j["rows"].push_back(
            { { "style", r.style }, { "n", r.n > 0 ? nlohmann::json(r.n) : nullptr }, { "step_ms", r.stepMs },
                { "tax_pct", r.taxPct }, { "tax_low_pct", r.taxLowPct }, { "tax_high_pct", r.taxHighPct } });
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
    return "trace-summary-" + stemOf(tracePath) + ".json";
}

TraceSummaryNames traceSummaryFileNames(const std::vector<std::string>& tracePaths)
{
    namespace fs = std::filesystem;
    TraceSummaryNames out;
    std::vector<fs::path> absolute;
    std::map<std::string, std::vector<size_t>> byStem;
    for (size_t i = 0; i < tracePaths.size(); ++i) {
        std::error_code ec;
        const fs::path a = fs::absolute(tracePaths[i], ec);
        absolute.push_back((ec ? fs::path(tracePaths[i]) : a).lexically_normal());
        out.names.push_back(traceSummaryFileName(tracePaths[i]));
        byStem[stemOf(tracePaths[i])].push_back(i);
    }
    for (const auto& [stem, group] : byStem) {
        if (group.size() < 2)
            continue;
        std::vector<std::vector<std::string>> folders;
        size_t deepest = 0;
        for (size_t a = 0; a < group.size(); ++a) {
            for (size_t b = 0; b < a; ++b) {
                if (absolute[group[a]] == absolute[group[b]]) {
                    out.problem = "'" + tracePaths[group[b]] + "' and '" + tracePaths[group[a]]
                        + "' are one file given twice: its summary would be written twice";
                    return out;
                }
            }
            folders.push_back(foldersAbove(absolute[group[a]]));
            deepest = std::max(deepest, folders.back().size());
        }
        for (size_t depth = 1; depth <= deepest; ++depth) {
            std::vector<std::string> labels;
            labels.reserve(folders.size());
            for (const auto& f : folders)
                labels.push_back(folderLabel(f, depth));
            if (std::set<std::string>(labels.begin(), labels.end()).size() < labels.size())
                continue;
            std::string named;
            for (size_t k = 0; k < group.size(); ++k) {
                out.names[group[k]] = "trace-summary-" + (labels[k].empty() ? "" : labels[k] + "-") + stem + ".json";
                named += (named.empty() ? "" : ", ") + out.names[group[k]];
            }
            out.renamed += (out.renamed.empty() ? "" : "\n") + std::to_string(group.size()) + " traces share the stem '"
                + stem + "': their summaries take their folders' names (" + named + ")";
            break;
        }
    }
    std::map<std::string, size_t> first;
    for (size_t i = 0; i < out.names.size(); ++i) {
        const auto [at, fresh] = first.emplace(out.names[i], i);
        if (!fresh) {
            out.problem = "the summaries of '" + tracePaths[at->second] + "' and '" + tracePaths[i] + "' would both be "
                + out.names[i] + ": rename one of the files";
            return out;
        }
    }
    return out;
}

void writeTraceSummary(
    const std::string& path, const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf)
{
    writeJsonFileAtomically(path, toJson(report, loop, whatIf));
}

} // namespace synctax
