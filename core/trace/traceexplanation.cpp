#include "core/trace/traceexplanation.h"

#include "core/analysis/explanation.h"
#include "core/text/format.h"

namespace synctax {

namespace {

// A tax above 0 never reads as "0.0%".
std::string pct(double v)
{
    if (v > 0 && v < 0.05)
        return "under 0.1%";
    return formatNumber(v >= 100 ? "%.0f" : "%.1f", v) + "%";
}

// The CUDA call of the site's first sync: a DtoH copy is told apart from other syncs of aten::to.
std::string apiOfSite(const TraceReport& report, int site)
{
    for (const TraceSync& s : report.syncs) {
        if (s.site == site)
            return s.api;
    }
    return std::string();
}

} // namespace

std::string explainTraceRegime(const TraceRegime& r, double taxPct)
{
    if (r.gMs <= 0) {
        return "The trace holds no GPU work in its steps (recorded without ProfilerActivity.CUDA, or a loop on the "
               "CPU): no regime and no sync tax can be told from it.";
    }
    const std::string host = formatMs(r.dMs + r.hMs);
    const std::string gpu = formatMs(r.gMs);
    const std::string tax = pct(taxPct);
    if (r.label == "gpu_bound") {
        return "GPU-bound: the GPU is busy " + gpu + " ms per step and the host needs only " + host
            + " ms, so the host runs ahead; a sync makes it wait for the queue to drain and the GPU then idles "
              "while the host queues the next work: here the bubbles cost "
            + tax + " of the step time.";
    }
    if (r.label == "dispatch_bound") {
        return "Dispatch-bound: the host needs " + host + " ms per step for " + gpu
            + " ms of GPU work, so the GPU waits on the host anyway; a sync adds its round trip and the wait for "
              "the last queued work, which the host would otherwise overlap with dispatching: "
            + tax + " of the step time here.";
    }
    return "Balanced: the host (" + host + " ms per step) and the GPU (" + gpu
        + " ms) are within a factor of two of each other and keep each other busy only while they overlap; a "
          "sync breaks that overlap, so its bubble shows almost fully in the step time: "
        + tax + " here.";
}

std::string syncRemedy(const std::string& op, const std::string& api)
{
    if (op == "aten::item" || op == "aten::_local_scalar_dense")
        return "Keep the value on the GPU (accumulate the loss into a tensor) and call .item() every N steps, or "
               "only when it is logged.";
    if (op == "aten::nonzero" || op == "aten::masked_select" || op == "aten::unique" || op == "aten::repeat_interleave")
        return "This op's output size depends on the data, so the host must wait to learn it: pass a known size "
               "(nonzero_static, output_size=) or use a mask with torch.where instead.";
    if (op.find("ynchronize") != std::string::npos) // torch.cuda.synchronize, cudaDeviceSynchronize
        return "An explicit synchronize: keep it only around timing you need, and time with CUDA events instead.";
    if (op == "aten::to" || op == "aten::_to_copy" || op == "aten::copy_" || op == "aten::cpu"
        || api.find("DtoH") != std::string::npos)
        return "A copy to the host: copy with non_blocking=True into pinned memory and read it a step later, or "
               "keep the value on the GPU.";
    if (op == "aten::is_nonzero" || op == "aten::equal")
        return "A tensor used as a Python bool (if t:, assert): compare on the GPU with torch.where, or check "
               "every N steps.";
    return "Find what reads this value on the host, and read it less often or later.";
}

TraceExplanation explainTrace(const TraceReport& report)
{
    TraceExplanation e;
    e.notes = report.notes;
    if (report.steps.empty()) {
        e.regime = "The trace has no step to explain.";
        return e;
    }
    if (!report.impossible.empty()) {
        e.regime = "This trace holds events that cannot happen (its first note says which): no regime, tax, worst "
                   "site or what-if is told from it.";
        return e;
    }
    // A merge of ranks of different regimes has no sentence: the merged numbers get their own.
    e.regime
        = report.regime.sentence.empty() ? explainTraceRegime(report.regime, report.taxPct) : report.regime.sentence;
    const std::string step = formatMs(report.meanStepMs) + " ms";
    const std::string syncs = formatNumber("%.2f", report.regime.syncsPerStep);
    if (report.regime.gMs <= 0) {
        if (report.regime.syncsPerStep > 0) {
            e.tax = syncs
                + " syncs per step, and no GPU work in the trace for them to wait on: what they cost cannot be told "
                  "from it.";
        }
        return e;
    }
    if (report.sites.empty() || report.regime.syncsPerStep <= 0) {
        e.tax = "No sync inside the steps: over " + std::to_string(report.steps.size()) + " step"
            + (report.steps.size() == 1 ? "" : "s") + " of " + step
            + " on average, the host never waited for the GPU. There is no tax to remove.";
        return e;
    }
    if (report.taxPct <= 0) {
        e.tax = syncs
            + " syncs per step, yet none left the GPU idle: each returned while the GPU still had work queued, or "
              "no GPU work followed it. No tax was measured, in steps of "
            + step + " on average.";
    } else {
        e.tax = "Syncs cost " + pct(report.taxPct) + " of the step time: " + syncs
            + " per step leave the GPU idle, in steps of " + step + " on average.";
    }
    const TraceSyncSite& worst = report.sites.front();
    const std::string where = worst.python
        ? " at " + *worst.python
        : " (the trace has no Python stacks: record with with_stack=True to see the line)";
    e.worstSite = "The worst site is " + worst.op + where + ": " + formatNumber("%.2f", worst.perStep)
        + " per step, the host waits " + formatMs(worst.waitMs) + " ms and the GPU then idles "
        + formatMs(worst.bubbleMs) + " ms per step, " + pct(worst.sharePct) + " of the step.";
    e.remedy = "What to try: " + syncRemedy(worst.op, apiOfSite(report, 0));
    const size_t others = report.sites.size() - 1;
    if (others > 0) {
        e.otherSites = std::to_string(others) + " other site" + (others == 1 ? " costs" : "s cost")
            + " less; the site table lists each.";
    }
    return e;
}

std::vector<std::string> TraceExplanation::paragraphs() const
{
    std::vector<std::string> out;
    for (const std::string* p : { &regime, &tax, &worstSite, &remedy, &otherSites }) {
        if (!p->empty())
            out.push_back(*p);
    }
    return out;
}

} // namespace synctax
