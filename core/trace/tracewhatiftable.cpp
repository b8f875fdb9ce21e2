#include "core/trace/tracewhatiftable.h"

#include "core/analysis/explanation.h"
#include "core/text/format.h"
#include "core/text/textwrap.h"

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

constexpr int columns = 80;
constexpr const char* title = "What if you logged differently";

std::string row(const std::string& marker, const std::string& style, const std::string& n, const std::string& ms,
    const std::string& tax)
{
    return padded(marker, 2, false) + padded(style, 30, false) + padded(n, 6) + padded(ms, 10) + "  " + tax + "\n";
}

} // namespace

std::string uncertaintyText(const WhatIf& w)
{
    return w.uncertaintyHow.empty() ? std::string("none: the rows are exact for the host time they assume")
                                    : w.uncertaintyHow;
}

std::string taxRangeText(const WhatIfRow& r)
{
    const std::string low = formatNumber("%+.1f", r.taxLowPct);
    const std::string high = formatNumber("%+.1f", r.taxHighPct);
    return low == high ? std::string() : " [" + low + ", " + high + "]";
}

std::string hostWorkText(double hostWorkUs) { return formatNumber("+%.2f ms", hostWorkUs * 1e-3); }

std::string formatWhatIfTable(const ImportedLoop& loop, const WhatIf& w)
{
    if (!loop.available || w.rows.empty())
        return wrapped(std::string(title) + ": not available ("
                + (loop.reason.empty() ? std::string("no loop to replay") : loop.reason) + ")",
            columns);
    std::string out = wrapped(std::string(title) + (w.calibrated ? "" : ", uncalibrated")
            + " (each style replayed on this loop, steady state"
            + (w.hostWorkUs > 0 ? ", " + hostWorkText(w.hostWorkUs) + " of host work per step"
                        + (w.hostWorkBeforeSync ? " before its sync" : std::string())
                                : std::string())
            + "):",
        columns);
    const std::string header = row("", "style", "every", "step ms", "tax vs none [range]");
    out += header + std::string(header.size() + 4, '-') + "\n";
    for (const WhatIfRow& r : w.rows) {
        const bool recorded = r.style == "as_recorded";
        out += row(recorded ? ">" : "", r.style, r.n > 0 ? std::to_string(r.n) : "", formatMs(r.stepMs),
            padded(formatNumber("%+.1f%%", r.taxPct), 7) + taxRangeText(r));
    }
    out += wrapped("> the loop as recorded, with its own syncs (" + formatNumber("%.0f", loop.recordedSyncsPerStep)
            + " per step); tax vs none: against the same loop with no per-step sync; every: the style's "
              "interval in steps",
        columns);
    out += wrapped("model: " + w.model, columns);
    out += wrapped("uncertainty: " + uncertaintyText(w), columns);
    for (const std::string& ignored : loop.ignored)
        out += wrapped("ignored: " + ignored, columns);
    const WhatIfRow& recorded = w.rows.front();
    if (loop.recordedTaxPct && w.hostWorkUs == 0
        && std::abs(*loop.recordedTaxPct - recorded.taxPct)
            > std::max(2.0, (recorded.taxHighPct - recorded.taxLowPct) / 2)) {
        out += wrapped("why the trace's own tax differs: its syncs cost " + formatNumber("%.1f%%", *loop.recordedTaxPct)
                + " of the profiled step, the replay gives as_recorded " + formatNumber("%+.1f%%", recorded.taxPct)
                + ": the profiler slowed the host, which moved the loop's balance of host and GPU; the replay is the "
                  "loop at the host time above",
            columns);
    }
    return out;
}

} // namespace synctax
