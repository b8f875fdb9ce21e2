#include "core/analysis/explanation.h"

#include "core/text/format.h"

#include <cmath>
#include <cstdio>

namespace synctax {

namespace {

std::string formatUs(double us) { return formatNumber(us >= 100 ? "%.0f" : "%.1f", us); }

const CellResult* itemCell(const GroupResult& group, const std::vector<CellResult>& cells)
{
    for (const auto& c : cells) {
        if (sameGroup(c, group) && c.style == "item" && c.ok && c.overheadPct)
            return &c;
    }
    return nullptr;
}

// The baseline's median queue depth: how far the host runs ahead when nothing syncs.
std::optional<double> baselineQueueSteps(const GroupResult& group, const std::vector<CellResult>& cells)
{
    for (const auto& c : cells) {
        if (sameGroup(c, group) && c.style == "none" && c.queue)
            return c.queue->medianQueueSteps;
    }
    return std::nullopt;
}

// idleStartUs: the GPU's start on an idle queue the replay fitted to the step from an idle GPU (0:
// none measured), which a sync pays beside its round trip once the queue has drained.
std::string gpuBound(const RegimeMeasurement& r, double hostMs, const std::optional<double>& queueSteps,
    const CellResult* item, double idleStartUs)
{
    std::string text = "GPU-bound: the GPU needs " + formatMs(r.gMs) + " ms per step and the host only "
        + formatMs(hostMs) + " ms, so ";
    if (queueSteps && r.k > 0) {
        text += "the host runs about " + formatNumber("%.1f", *queueSteps) + " steps (~"
            + formatNumber("%.0f", *queueSteps * double(r.k)) + " launches) ahead";
    } else if (queueSteps) {
        text += "the host runs about " + formatNumber("%.1f", *queueSteps) + " steps ahead";
    } else {
        text += "the host runs ahead and the GPU queue stays full";
    }
    const double bubbleUs = r.lUs + idleStartUs;
    const double bubblePct = r.gMs > 0 ? 100.0 * bubbleUs * 1e-3 / r.gMs : 0;
    text += "; item() waits for work that had to run anyway, and the bubble costs about " + formatUs(bubbleUs)
        + " µs of a " + formatMs(r.gMs) + " ms step (~" + formatNumber("%.1f", bubblePct) + "%";
    if (idleStartUs > 0)
        text += ": its round trip, and " + formatUs(idleStartUs)
            + " µs for the GPU to start again on the drained queue, as a step from an idle GPU showed";
    if (item)
        text += "; measured item " + formatOverhead(*item->overheadPct);
    return text + ").";
}

std::string dispatchBound(const RegimeMeasurement& r, double hostMs, const CellResult* item)
{
    std::string text = "Dispatch-bound: the host needs " + formatMs(hostMs) + " ms to queue a step the GPU runs in "
        + formatMs(r.gMs) + " ms, so the queue stays short and the GPU idles between steps. item() adds its ~"
        + formatUs(r.lUs)
        + " µs round trip plus the wait for the step's last kernels, which the host would otherwise overlap with "
          "queueing the next step";
    if (item)
        text += " (measured item " + formatOverhead(*item->overheadPct) + ")";
    return text + ".";
}

std::string balanced(const RegimeMeasurement& r, double hostMs, const CellResult* item)
{
    std::string text = "Balanced: host " + formatMs(hostMs) + " ms and GPU " + formatMs(r.gMs)
        + " ms per step are within a factor of two: each sync stops the host from running ahead, so the GPU "
          "waits for the next dispatch — this is where the tax bites";
    if (item)
        text += " (measured item " + formatOverhead(*item->overheadPct) + ")";
    return text + ".";
}

// On a CPU the measured numbers come first; that there is no queue to explain comes last.
std::string noQueue(const RegimeMeasurement& r, const CellResult* item, const std::string& noise)
{
    std::string text = "On the CPU the overheads are host costs only: formatting, writing, copying.";
    if (item)
        text += " Measured item " + formatOverhead(*item->overheadPct) + ".";
    text += noise;
    text += " No GPU queue to explain: every op runs synchronously, so a sync such as item() waits for nothing";
    if (!r.reason.empty())
        text += " (" + r.reason + ")";
    return text + ".";
}

// " Too noisy to tell styles apart (why): ..." when the group is; empty otherwise.
std::string noiseSentence(const GroupResult& group)
{
    const std::vector<std::string> reasons = noiseReasons(group);
    if (reasons.empty())
        return "";
    std::string why;
    for (const auto& reason : reasons)
        why += (why.empty() ? "" : "; ") + reason;
    return " Too noisy to tell styles apart (" + why + "): no overhead measured here is a finding.";
}

} // namespace

std::string regimeTitle(const RegimeMeasurement& regime)
{
    if (!regime.available)
        return "No GPU queue";
    if (regime.label == "gpu_bound")
        return "GPU-bound";
    if (regime.label == "dispatch_bound")
        return "Dispatch-bound";
    if (regime.label == "balanced")
        return "Balanced";
    return "Unclassified";
}

std::string regimeNumbers(const RegimeMeasurement& regime)
{
    if (!regime.available)
        return "";
    return "D " + formatMs(regime.dMs) + " ms" + (regime.queueLimited ? " (upper bound)" : "") + " · G "
        + formatMs(regime.gMs) + " ms · L " + formatUs(regime.lUs) + " µs · K "
        + (regime.k > 0 ? std::to_string(regime.k) : "?") + " · H " + formatNumber("%.0f", regime.hUs) + " µs";
}

RegimeMeasurement groupRegime(const GroupResult& group)
{
    RegimeMeasurement r = group.regime;
    if (group.replay && r.available) {
        // The replayed step's D (its host without waits) and G, from which its label comes.
        r.dMs = group.replay->regime.dMs;
        r.gMs = group.replay->regime.gMs;
        r.queueLimited = false;
    }
    return r;
}

std::string explainGroup(const GroupResult& group, const std::vector<CellResult>& cells)
{
    const RegimeMeasurement r = groupRegime(group);
    const CellResult* item = itemCell(group, cells);
    if (!r.available)
        return noQueue(r, item, noiseSentence(group));

    // The host's share of a step is its dispatch time plus the host work the config adds.
    const double hostMs = r.dMs + r.hUs * 1e-3;
    std::string text;
    if (r.label == "gpu_bound")
        text
            = gpuBound(r, hostMs, baselineQueueSteps(group, cells), item, group.replay ? group.replay->idleStartUs : 0);
    else if (r.label == "dispatch_bound")
        text = dispatchBound(r, hostMs, item);
    else if (r.label == "balanced")
        text = balanced(r, hostMs, item);
    else
        text = "Host " + formatMs(hostMs) + " ms and GPU " + formatMs(r.gMs) + " ms per step.";
    if (r.hUs > 0)
        text += " The host time includes " + formatNumber("%.0f", r.hUs) + " µs of configured host work per step.";
    if (r.queueLimited)
        text += " D (" + formatMs(r.dMs)
            + " ms) is an upper bound: one step fills the launch queue, so dispatching it includes waiting for the "
              "GPU.";
    return text + noiseSentence(group);
}

} // namespace synctax
