#include "core/trace/tracewhatiftable.h"

#include "core/analysis/explanation.h"
#include "core/text/format.h"
#include "core/text/textwrap.h"

namespace synctax {

namespace {

constexpr int columns = 80;
constexpr const char* title = "What if you logged differently";

std::string row(const std::string& marker, const std::string& style, const std::string& n, const std::string& ms,
    const std::string& tax)
{
    return padded(marker, 2, false) + padded(style, 30, false) + padded(n, 6) + padded(ms, 10) + padded(tax, 13) + "\n";
}

} // namespace

std::string uncertaintyText(const WhatIf& w)
{
    return w.uncertaintyPct > 0
        ? "the host time the rows assume is known to within " + formatNumber("%.0f", w.uncertaintyPct) + "%"
        : "not estimated";
}

std::string hostWorkText(double hostWorkUs) { return formatNumber("+%.2f ms", hostWorkUs * 1e-3); }

std::string formatWhatIfTable(const ImportedLoop& loop, const WhatIf& w)
{
    if (!loop.available || w.rows.empty())
        return wrapped(std::string(title) + ": not available ("
                + (loop.reason.empty() ? std::string("no loop to replay") : loop.reason) + ")",
            columns);
    std::string out = wrapped(std::string(title) + " (each style replayed on this loop, steady state"
            + (w.hostWorkUs > 0 ? ", " + hostWorkText(w.hostWorkUs) + " of host work per step"
                        + (w.hostWorkBeforeSync ? " before its sync" : std::string())
                                : std::string())
            + "):",
        columns);
    const std::string header = row("", "style", "every", "step ms", "tax vs none");
    out += header + std::string(header.size() - 1, '-') + "\n";
    for (const WhatIfRow& r : w.rows) {
        const bool recorded = r.style == "as_recorded";
        out += row(recorded ? ">" : "", r.style, r.n > 0 ? std::to_string(r.n) : "", formatMs(r.stepMs),
            formatNumber("%+.1f%%", r.taxPct));
    }
    out += wrapped("> the loop as recorded, with its own syncs (" + formatNumber("%.0f", loop.recordedSyncsPerStep)
            + " per step); tax vs none: against the same loop with no per-step sync; every: the style's "
              "interval in steps",
        columns);
    out += wrapped("model: " + w.model, columns);
    out += wrapped("uncertainty: " + uncertaintyText(w), columns);
    return out;
}

} // namespace synctax
