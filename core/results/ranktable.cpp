#include "core/results/ranktable.h"

#include "core/config/sweepgrid.h"
#include "core/results/resulttable.h"
#include "core/text/format.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace synctax {

namespace {

// The style column as wide as the longest style shown (28 at most, the catalog's longest), so
// that a row with its tax interval fits 80 columns.
std::string line(int styleWidth, const char* who, const char* style, const char* step, const char* wait,
    const char* pred, const std::string& tax)
{
    char text[200];
    std::snprintf(text, sizeof text, "  %-6s %-*s %7s %7s %6s  ", who, styleWidth, style, step, wait, pred);
    std::string row = text + tax;
    while (!row.empty() && row.back() == ' ')
        row.pop_back();
    return row + "\n";
}

// `predicted`: the queue model's tax for the row (a rank's barrier replay, the single process's own).
std::string row(int styleWidth, const std::string& who, const CellResult& c, const std::optional<Prediction>& predicted)
{
    const std::string step = c.stepsMeasured > 0 ? formatNumber("%.3f", c.stepMs.median) : "-";
    const std::string wait = c.collectiveWaitMs ? formatNumber("%.3f", c.collectiveWaitMs->median) : "-";
    const std::string pred = predicted && c.overheadPct ? formatNumber("%+.1f%%", predicted->overheadPct) : "";
    const std::string tax = !c.ok ? "failed: " + c.error : c.overheadPct ? formatOverhead(*c.overheadPct) : "";
    return line(styleWidth, who.c_str(), c.style.c_str(), step.c_str(), wait.c_str(), pred.c_str(), tax);
}

// What made the group's rank predictions: one line under its heading, where there are any.
std::string predictedBy(const DistributedResult& d, const GroupKey& group)
{
    for (const RankOutcome& r : d.ranks) {
        for (const CellResult& c : r.cells) {
            if (sameGroup(c, group) && c.rankPrediction)
                return "  pred: the " + c.rankPrediction->tax.model + " model's barrier replay of every rank, "
                    + "all-reduce " + formatNumber("%.3f", c.rankPrediction->collectiveMs) + " ms\n";
        }
    }
    return "";
}

} // namespace

std::string formatRankTable(const ExperimentResult& result)
{
    if (!result.distributed || result.distributed->ranks.empty() || !result.config.distributed)
        return "";
    const DistributedSpec& spec = *result.config.distributed;
    const DistributedResult& d = *result.distributed;
    std::ostringstream out;
    out << "\nper rank (" << toString(spec.backend) << ", " << spec.ranks << " ranks, styles on "
        << (spec.syncOn == SyncOn::All ? "every rank" : "rank 0") << "): step and wait are medians, ms\n";
    for (const RankOutcome& r : d.ranks) {
        if (r.status != "ok")
            out << "  rank " << r.rank << ": " << r.status << (r.message.empty() ? "" : ": " + r.message) << "\n";
    }
    // Group by group (a model, and its sweep point where the config sweeps: each point has its own
    // baseline), in the order the cells came: the ranks' rows, then the single process's.
    std::vector<GroupKey> groups;
    int styleWidth = 5;
    const auto collect = [&](const std::vector<CellResult>& cells) {
        for (const CellResult& c : cells) {
            if (std::find(groups.begin(), groups.end(), groupKeyOf(c)) == groups.end())
                groups.push_back(groupKeyOf(c));
            styleWidth = std::max(styleWidth, int(c.style.size()));
        }
    };
    for (const RankOutcome& r : d.ranks)
        collect(r.cells);
    collect(d.singleProcess);
    for (const GroupKey& group : groups) {
        out << groupLabel(result, group) << "\n"
            << predictedBy(d, group) << line(styleWidth, "rank", "style", "step", "wait", "pred", "tax");
        for (const RankOutcome& r : d.ranks) {
            for (const CellResult& c : r.cells) {
                if (sameGroup(c, group))
                    out << row(styleWidth, std::to_string(r.rank), c,
                        c.rankPrediction ? std::optional<Prediction>(c.rankPrediction->tax) : std::nullopt);
            }
        }
        for (const CellResult& c : d.singleProcess) {
            if (sameGroup(c, group))
                out << row(styleWidth, "single", c, c.prediction);
        }
    }
    return out.str();
}

} // namespace synctax
