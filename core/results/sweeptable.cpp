#include "core/results/sweeptable.h"

#include "core/analysis/sweepcurve.h"
#include "core/text/format.h"

#include <algorithm>
#include <array>
#include <vector>

namespace synctax {

namespace {

using Row = std::array<std::string, 3>;

std::string measuredText(const SweepPoint& p)
{
    if (!p.ok)
        return "failed";
    return p.measuredPct ? formatOverhead(*p.measuredPct) : "-";
}

std::string curveTable(const SweepCurve& curve, const SweptKeys& swept)
{
    std::vector<Row> rows { Row { "host work", "measured [95% CI]", "predicted" } };
    for (const SweepPoint& p : curve.points) {
        rows.push_back({ formatHostWork(p.hostWorkUs), measuredText(p),
            p.predictedPct ? formatNumber("%+.1f%%", *p.predictedPct) : "-" });
    }
    std::array<size_t, 3> widths {};
    for (const Row& row : rows) {
        for (size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    const auto line = [&](const Row& row) {
        // Host works right-aligned, so that their units line up; the rest as the main table.
        std::string text = std::string(widths[0] - row[0].size(), ' ') + row[0];
        for (size_t i = 1; i < row.size(); ++i)
            text += " | " + row[i] + (i + 1 < row.size() ? std::string(widths[i] - row[i].size(), ' ') : "");
        return text + "\n";
    };
    const std::string batch = swept.batch ? " b=" + std::to_string(curve.batch) : "";
    std::string out = "tax against host work: " + curve.model + "/" + curve.mode + "/" + curve.style + batch + "\n";
    out += line(rows.front());
    out += std::string(widths[0], '-') + "-+-" + std::string(widths[1], '-') + "-+-" + std::string(widths[2], '-')
        + "\n";
    for (size_t r = 1; r < rows.size(); ++r)
        out += line(rows[r]);
    return out;
}

} // namespace

std::string formatSweepTables(const ExperimentResult& result)
{
    const SweptKeys swept = sweptKeys(result.config);
    std::string out;
    for (const SweepCurve& curve : sweepCurves(result))
        out += "\n" + curveTable(curve, swept);
    return out;
}

} // namespace synctax
