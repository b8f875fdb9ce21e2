#include "core/files/ranktable.h"

#include "core/analysis/format.h"

#include <cstdio>
#include <sstream>

namespace synctax {

namespace {

std::string row(const std::string& who, const CellResult& c)
{
    char line[160];
    const std::string wait = c.collectiveWaitMs ? formatNumber("%.3f", c.collectiveWaitMs->median) : "-";
    const std::string tax = !c.ok ? "failed: " + c.error : c.overheadPct ? formatOverhead(*c.overheadPct) : "";
    std::snprintf(line, sizeof line, "  %-8s %-14s %-28s %9s %9s  ", who.c_str(), c.model.c_str(), c.style.c_str(),
        c.stepsMeasured > 0 ? formatNumber("%.3f", c.stepMs.median).c_str() : "-", wait.c_str());
    return line + tax + "\n";
}

} // namespace

std::string formatRankTable(const ExperimentResult& result)
{
    if (!result.distributed || result.distributed->ranks.empty() || !result.config.distributed)
        return "";
    const DistributedSpec& spec = *result.config.distributed;
    std::ostringstream out;
    out << "\nper rank (" << toString(spec.backend) << ", " << spec.ranks << " ranks, styles on "
        << (spec.syncOn == SyncOn::All ? "every rank" : "rank 0") << "): step and wait are medians, ms\n";
    char header[160];
    std::snprintf(
        header, sizeof header, "  %-8s %-14s %-28s %9s %9s  %s\n", "rank", "model", "style", "step", "wait", "tax");
    out << header;
    for (const RankOutcome& r : result.distributed->ranks) {
        if (r.status != "ok")
            out << "  rank " << r.rank << ": " << r.status << (r.message.empty() ? "" : ": " + r.message) << "\n";
        for (const CellResult& c : r.cells)
            out << row(std::to_string(r.rank), c);
    }
    for (const CellResult& c : result.distributed->singleProcess)
        out << row("single", c);
    return out.str();
}

} // namespace synctax
