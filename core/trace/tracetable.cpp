#include "core/trace/tracetable.h"

#include "core/analysis/explanation.h"
#include "core/config/configerror.h"
#include "core/text/format.h"
#include "core/text/textwrap.h"
#include "core/trace/traceexplanation.h"

#include <algorithm>

namespace synctax {

namespace {

constexpr int columns = 80;

// "#12" for "ProfilerStep#12": the step column stays narrow.
std::string stepLabel(const std::string& name)
{
    const size_t hash = name.rfind('#');
    return name.rfind("ProfilerStep", 0) == 0 && hash != std::string::npos ? name.substr(hash) : name;
}

std::string pct(double v) { return formatNumber(v >= 100 ? "%.0f%%" : "%.1f%%", v); }

std::string stepRow(const std::string& label, const TraceStep& s, const std::string& launches, const std::string& syncs,
    const std::string& queue)
{
    return padded(label, 11, false) + padded(formatMs(s.stepMs), 7) + padded(formatMs(s.dispatchMs), 7)
        + padded(formatMs(s.gpuBusyMs), 7) + padded(launches, 6) + padded(syncs, 6) + padded(formatMs(s.syncWaitMs), 7)
        + padded(formatMs(s.syncBubbleMs), 7) + padded(pct(s.taxPct), 6) + padded(queue, 6)
        + padded(formatMs(s.lagMs), 7) + "\n";
}

// A Python line cut from the left, where the long paths are, to keep its file and line.
std::string fitted(const std::string& text, size_t width)
{
    return text.size() <= width ? text : "..." + text.substr(text.size() - (width - 3));
}

} // namespace

std::string formatStepTable(const TraceReport& r)
{
    std::string out = padded("step", 11, false) + padded("ms", 7) + padded("D ms", 7) + padded("G ms", 7)
        + padded("K", 6) + padded("syncs", 6) + padded("wait", 7) + padded("bubble", 7) + padded("tax", 6)
        + padded("queue", 6) + padded("lag", 7) + "\n";
    out += std::string(out.size() - 1, '-') + "\n";
    TraceStep mean;
    double launches = 0, syncs = 0, queue = 0;
    for (const auto& s : r.steps) {
        out += stepRow(
            stepLabel(s.name), s, std::to_string(s.launches), std::to_string(s.syncs), std::to_string(s.queueMax));
        mean.stepMs += s.stepMs;
        mean.dispatchMs += s.dispatchMs;
        mean.gpuBusyMs += s.gpuBusyMs;
        mean.syncWaitMs += s.syncWaitMs;
        mean.syncBubbleMs += s.syncBubbleMs;
        mean.lagMs += s.lagMs;
        launches += s.launches;
        syncs += s.syncs;
        queue += s.queueMax;
    }
    if (r.steps.size() > 1) {
        const double n = double(r.steps.size());
        for (double* v :
            { &mean.stepMs, &mean.dispatchMs, &mean.gpuBusyMs, &mean.syncWaitMs, &mean.syncBubbleMs, &mean.lagMs })
            *v /= n;
        mean.taxPct = r.taxPct;
        out += stepRow("mean", mean, formatNumber("%.0f", launches / n), formatNumber("%.1f", syncs / n),
            formatNumber("%.0f", queue / n));
    }
    out += wrapped("ms = step time; D = host time in launch calls; G = GPU busy; K = launches; wait, bubble = "
                   "the syncs' host wait and the GPU idle after them until its next op; tax = bubble / step; "
                   "queue = deepest launch queue on a stream; lag = GPU op start - launch call start, at the "
                   "step's last launch",
        columns);
    return out;
}

std::string formatSiteTable(const TraceReport& r)
{
    if (r.sites.empty())
        return "no syncs inside steps\n";
    std::string out = padded("sync site", 44, false) + padded("/step", 7) + padded("wait ms", 9)
        + padded("bubble ms", 11) + padded("share", 7) + "\n";
    out += std::string(out.size() - 1, '-') + "\n";
    for (const auto& s : r.sites) {
        out += padded(fitted(s.op, 44), 44, false) + padded(formatNumber("%.2f", s.perStep), 7)
            + padded(formatMs(s.waitMs), 9) + padded(formatMs(s.bubbleMs), 11) + padded(pct(s.sharePct), 7) + "\n";
        if (s.python)
            out += "  " + fitted(*s.python, size_t(columns) - 3) + "\n";
    }
    out += wrapped("per step: wait = host time in the site's syncs, bubble = GPU idle after them; share = "
                   "bubble / mean step time",
        columns);
    return out;
}

std::string formatTraceReport(const TraceReport& r)
{
    std::string title = printable(r.source.file); // a file name may hold an escape sequence
    std::string about;
    for (const std::string& part :
        { r.source.device, r.source.cudaVersion ? "CUDA " + *r.source.cudaVersion : std::string(),
            r.source.torchVersion ? "torch " + *r.source.torchVersion : std::string(),
            r.source.rank ? "rank " + std::to_string(*r.source.rank) : std::string() }) {
        if (!part.empty())
            about += (about.empty() ? "" : ", ") + part;
    }
    // The file's path is never cut, so that it can be copied: the rest goes under it when too long.
    about = about.empty() ? "" : "(" + about + ")";
    std::string out = title.size() + 1 + about.size() <= size_t(columns)
        ? title + (about.empty() ? "" : " " + about) + "\n"
        : title + "\n" + (about.empty() ? "" : "  " + about + "\n");
    // A trace that holds what cannot happen gets no tables: each of their figures stands on it.
    if (r.impossible.empty())
        out += "\n" + formatStepTable(r) + "\n" + formatSiteTable(r) + "\n";
    else
        out += "\n";
    const TraceRegime& g = r.regime;
    if (!g.label.empty()) {
        out += wrapped("regime " + g.label + ": D " + formatMs(g.dMs) + " ms, G " + formatMs(g.gMs) + " ms, H "
                + formatMs(g.hMs) + " ms per step",
            columns);
    }
    // The words are the app's (explainTrace): the regime, the tax, the worst site and what to try.
    const TraceExplanation e = explainTrace(r);
    for (const std::string& p : e.paragraphs())
        out += wrapped(p, columns);
    for (const auto& note : e.notes)
        out += wrapped("note: " + note, columns);
    return out;
}

std::string formatRankLine(const TraceReport& r)
{
    const std::string rank = r.source.rank ? "rank " + std::to_string(*r.source.rank) : printable(r.source.file);
    std::string line = rank + ": " + std::to_string(r.steps.size()) + " step" + (r.steps.size() == 1 ? "" : "s") + ", ";
    if (!r.impossible.empty())
        line += "events that cannot happen (see its notes)";
    else if (r.regime.label.empty())
        line += formatMs(r.meanStepMs) + " ms/step, no GPU work";
    else
        line += formatMs(r.meanStepMs) + " ms/step, " + formatNumber("%.2f", r.regime.syncsPerStep)
            + " syncs/step, tax " + pct(r.taxPct) + ", " + r.regime.label;
    return wrapped(line, columns);
}

} // namespace synctax
