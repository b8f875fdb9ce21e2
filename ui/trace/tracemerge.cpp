#include "ui/trace/tracemerge.h"

#include "core/queuemodel/regime.h"

#include <algorithm>
#include <map>

namespace synctax {

TraceReport mergeTraceReports(const std::vector<const TraceReport*>& parts)
{
    if (parts.empty())
        return {};
    if (parts.size() == 1)
        return *parts.front();
    TraceReport merged;
    merged.source = parts.front()->source;
    merged.stepsMarked = true;
    std::map<std::pair<std::string, std::string>, size_t> siteIndex;
    double stepMs = 0;
    double bubbleMs = 0;
    for (const TraceReport* part : parts) {
        merged.stepsMarked = merged.stepsMarked && part->stepsMarked;
        const int stepOffset = int(merged.steps.size());
        const double steps = double(part->steps.size());
        std::vector<int> siteMap;
        for (const TraceSyncSite& site : part->sites) {
            const auto key = std::make_pair(site.op, site.python.value_or(std::string()));
            auto [it, added] = siteIndex.emplace(key, merged.sites.size());
            if (added) {
                merged.sites.push_back(site);
                merged.sites.back().count = 0;
                merged.sites.back().waitMs = merged.sites.back().bubbleMs = 0;
            }
            TraceSyncSite& into = merged.sites[it->second];
            into.count += site.count;
            // Sums of per-step values times steps: divided by all the steps below.
            into.waitMs += site.waitMs * steps;
            into.bubbleMs += site.bubbleMs * steps;
            siteMap.push_back(int(it->second));
        }
        for (TraceSync sync : part->syncs) {
            sync.site = sync.site >= 0 && sync.site < int(siteMap.size()) ? siteMap[size_t(sync.site)] : -1;
            sync.step = sync.step >= 0 ? sync.step + stepOffset : -1;
            merged.syncs.push_back(sync);
        }
        for (const TraceStep& s : part->steps) {
            stepMs += s.stepMs;
            bubbleMs += s.syncBubbleMs;
        }
        merged.steps.insert(merged.steps.end(), part->steps.begin(), part->steps.end());
        merged.queues.insert(merged.queues.end(), part->queues.begin(), part->queues.end());
        merged.lag.insert(merged.lag.end(), part->lag.begin(), part->lag.end());
        merged.regime.dMs += part->regime.dMs * steps;
        merged.regime.gMs += part->regime.gMs * steps;
        merged.regime.hMs += part->regime.hMs * steps;
        merged.regime.syncsPerStep += part->regime.syncsPerStep * steps;
        merged.notes.insert(merged.notes.end(), part->notes.begin(), part->notes.end());
        merged.impossible.insert(merged.impossible.end(), part->impossible.begin(), part->impossible.end());
    }
    const double steps = double(merged.steps.size());
    merged.meanStepMs = steps > 0 ? stepMs / steps : 0;
    merged.taxPct = stepMs > 0 ? 100.0 * bubbleMs / stepMs : 0;
    for (TraceSyncSite& site : merged.sites) {
        site.perStep = steps > 0 ? site.count / steps : 0;
        site.waitMs = steps > 0 ? site.waitMs / steps : 0;
        site.bubbleMs = steps > 0 ? site.bubbleMs / steps : 0;
        site.sharePct = merged.meanStepMs > 0 ? 100.0 * site.bubbleMs / merged.meanStepMs : 0;
    }
    // Most bubble per step first, as the analysis orders them; the syncs follow their sites.
    std::vector<size_t> order(merged.sites.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return merged.sites[a].bubbleMs > merged.sites[b].bubbleMs; });
    std::vector<int> rank(order.size());
    std::vector<TraceSyncSite> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
        rank[order[i]] = int(i);
        sorted.push_back(merged.sites[order[i]]);
    }
    merged.sites = std::move(sorted);
    for (TraceSync& sync : merged.syncs)
        sync.site = sync.site >= 0 ? rank[size_t(sync.site)] : -1;
    if (steps > 0) {
        merged.regime.dMs /= steps;
        merged.regime.gMs /= steps;
        merged.regime.hMs /= steps;
        merged.regime.syncsPerStep /= steps;
    }
    // No GPU work, or a part that cannot be right: no regime (analyseTrace leaves it empty too).
    if (merged.regime.gMs > 0 && merged.impossible.empty())
        merged.regime.label = classifyRegime(merged.regime.dMs, merged.regime.gMs, merged.regime.hMs * 1000.0);
    merged.regime.sentence
        = parts.back()->regime.label == merged.regime.label ? parts.back()->regime.sentence : std::string();
    return merged;
}

} // namespace synctax
