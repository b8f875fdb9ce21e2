#include "core/results/resulttable.h"

#include "core/queuemodel/prediction.h"
#include "core/queuemodel/stylereplay.h"

#include "core/text/textwrap.h"

#include "core/analysis/processmerge.h"
#include "core/config/stylecatalog.h"
#include "core/text/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace synctax {

namespace {

std::string fixed(double v, const char* format) { return std::isfinite(v) ? formatNumber(format, v) : ""; }

std::string pad(const std::string& s, size_t width, bool right = false)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string cellText(const CellResult& c)
{
    if (!c.ok)
        return "failed";
    if (c.stepsMeasured == 0)
        return "-";
    std::string text = fixed(c.stepMs.mean, "%.3f") + " ms  ";
    if (c.style == baselineStyle())
        return text + "baseline";
    if (!c.overheadPct)
        return text + "n/a";
    // Within noise by one of two rules, marked apart: the interval holds 0, or it excludes 0 with an
    // estimate no larger than the model's noise floor.
    const bool noise = c.verdict == Verdict::WithinNoise;
    const bool holdsZero = c.overheadPct->low <= 0 && c.overheadPct->high >= 0;
    text += formatOverhead(*c.overheadPct) + (noise ? (holdsZero ? " ~" : " ~floor") : "");
    if (c.prediction)
        text += "  pred " + fixed(c.prediction->overheadPct, "%+.1f%%");
    return text;
}

// Each style's cell in each group (groupLabel), in run order, with each group's column as wide as its widest cell.
struct Grid {
    std::vector<std::string> groups;
    std::vector<std::string> styles;
    std::map<std::pair<std::string, std::string>, const CellResult*> cells;
    size_t styleWidth = 5;
    std::vector<size_t> widths;

    std::string cell(size_t group, const std::string& style) const
    {
        const auto it = cells.find({ groups[group], style });
        return it == cells.end() ? "" : cellText(*it->second);
    }
    // The columns a row of these groups takes.
    size_t rowWidth(const std::vector<size_t>& block) const
    {
        size_t w = styleWidth;
        for (size_t g : block)
            w += 3 + widths[g];
        return w;
    }
};

Grid gridOf(const ExperimentResult& result)
{
    Grid grid;
    for (const auto& c : result.cells) {
        const std::string group = groupLabel(result, groupKeyOf(c));
        if (std::find(grid.groups.begin(), grid.groups.end(), group) == grid.groups.end())
            grid.groups.push_back(group);
        if (std::find(grid.styles.begin(), grid.styles.end(), c.style) == grid.styles.end())
            grid.styles.push_back(c.style);
        grid.cells[{ group, c.style }] = &c;
    }
    for (const auto& s : grid.styles)
        grid.styleWidth = std::max(grid.styleWidth, s.size());
    for (size_t g = 0; g < grid.groups.size(); ++g) {
        size_t w = grid.groups[g].size();
        for (const auto& s : grid.styles)
            w = std::max(w, grid.cell(g, s).size());
        grid.widths.push_back(w);
    }
    return grid;
}

// The groups side by side while they fit in `columns` (0: no limit), else in blocks one under the
// other, each with the style column again.
std::vector<std::vector<size_t>> blocksFitting(const Grid& grid, int columns)
{
    std::vector<std::vector<size_t>> blocks;
    for (size_t g = 0; g < grid.groups.size(); ++g) {
        if (!blocks.empty()) {
            std::vector<size_t> wider = blocks.back();
            wider.push_back(g);
            if (columns <= 0 || grid.rowWidth(wider) <= size_t(columns)) {
                blocks.back() = wider;
                continue;
            }
        }
        blocks.push_back({ g });
    }
    return blocks;
}

std::string gridText(const Grid& grid, const std::vector<size_t>& block, int columns)
{
    std::string out;
    if (columns > 0 && grid.rowWidth(block) > size_t(columns)) {
        // One group, still too wide: each cell under its style.
        for (size_t g : block) {
            out += grid.groups[g] + "\n";
            for (const auto& s : grid.styles)
                out += "  " + s + "\n" + wrapped("    " + grid.cell(g, s), columns);
        }
        return out;
    }
    out = pad("style", grid.styleWidth);
    for (size_t g : block)
        out += " | " + pad(grid.groups[g], grid.widths[g]);
    out += "\n" + std::string(grid.styleWidth, '-');
    for (size_t g : block)
        out += "-+-" + std::string(grid.widths[g], '-');
    out += "\n";
    for (const auto& s : grid.styles) {
        out += pad(s, grid.styleWidth);
        for (size_t g : block)
            out += " | " + pad(grid.cell(g, s), grid.widths[g]);
        out += "\n";
    }
    return out;
}

// What the grid's marks mean, then per group how it ran, then each failure: one entry per line.
std::vector<std::string> notes(const ExperimentResult& result, size_t styleWidth)
{
    std::vector<std::string> lines;
    const bool processes = spreadOverProcesses(result);
    lines.push_back(std::string("ms = mean ms/step over the cell's blocks; overhead vs 'none' of the same model: "
                                "trimmed geometric mean of the ratios of blocks paired round by round ")
        + (processes ? "[95% CI across processes, Student's t]" : "[95% bootstrap CI]")
        + ". Pairing cancels what changed from round to round and the means keep, so a style can show fewer ms "
          "than 'none' beside a positive overhead");
    lines.push_back("~ = within noise: the interval includes 0; ~floor = within noise: the interval excludes 0, but "
                    "the estimate is no larger than the model's noise floor (below: the widest end of the "
                    "aa_control interval)");
    if (std::any_of(result.groups.begin(), result.groups.end(), [](const GroupResult& g) { return g.drift; }))
        lines.push_back("drift = the baseline's ms/step over the second half of the rounds against the first; "
                        "FLAGGED: it moved more than the aa_control interval is wide, so the machine's speed changed "
                        "during the run (pairing still cancels a slow change)");
    const bool predicted = std::any_of(
        result.cells.begin(), result.cells.end(), [](const CellResult& c) { return c.prediction.has_value(); });
    const bool replayed = std::any_of(
        result.groups.begin(), result.groups.end(), [](const GroupResult& g) { return g.replay.has_value(); });
    if (predicted && replayed)
        lines.push_back("pred = the queue model's overhead: a replay of the group's profiled step, calibrated to its "
                        "unprofiled host time and G, with each style's cost measured on an idle GPU");
    else if (predicted)
        lines.push_back("pred = the queue model's overhead, simulated from the group's measured D, G, L, K and H");
    for (const auto& g : result.groups) {
        std::string line
            = groupLabel(result, groupKeyOf(g)) + ": " + std::to_string(g.rounds) + " rounds (" + g.stopReason + ")";
        if (g.processRounds.size() > 1) {
            std::string split;
            for (int r : g.processRounds)
                split += (split.empty() ? "" : "+") + std::to_string(r);
            line += " in " + std::to_string(g.processRounds.size()) + " processes (" + split + ")";
        }
        line += ", noise floor " + fixed(g.noiseFloorPct, "%.1f") + "%";
        if (g.drift)
            line += ", drift " + fixed(g.drift->pct, "%+.1f") + "%" + (g.drift->flagged ? " FLAGGED" : "");
        if (g.clocks.available) {
            line += ", SM clock " + std::to_string(g.clocks.minMhz) + "-" + std::to_string(g.clocks.maxMhz) + " MHz";
            if (g.clocks.lowClockBlocks > 0)
                line += " (" + std::to_string(g.clocks.lowClockBlocks) + " blocks under 75% of "
                    + std::to_string(g.clocks.defaultMhz) + " MHz)";
        }
        lines.push_back(line);
        if (g.regime.available) {
            lines.push_back("  regime " + g.regime.label + ": D " + fixed(g.regime.dMs, "%.3f") + " ms"
                + (g.regime.queueLimited ? " (queue-limited)" : "") + ", G " + fixed(g.regime.gMs, "%.3f") + " ms, L "
                + fixed(g.regime.lUs, "%.1f") + " us, K " + (g.regime.k > 0 ? std::to_string(g.regime.k) : "?") + ", H "
                + fixed(g.regime.hUs, "%.0f") + " us");
        }
        if (g.replay) {
            lines.push_back("  replay: " + std::to_string(g.replay->step.ops.size()) + " launches, D "
                + fixed(g.replay->regime.dMs, "%.3f") + " ms, G " + fixed(g.replay->regime.gMs, "%.3f") + " ms; "
                + g.replay->calibration.how + afterSyncText(g.replay->costs)
                + (g.replay->drainMs > 0 ? "; from idle it drains in " + fixed(g.replay->drainMs, "%.2f") + " ms: "
                            + (fitsIdleStart(g.replay->step)
                                    ? "GPU start on an idle queue +" + fixed(g.replay->idleStartUs, "%.1f") + " us"
                                    : std::string("no GPU start fitted (its host sets the pace by itself)"))
                                         : std::string()));
        } else if (!g.replayAbsent.empty() && g.regime.available) {
            lines.push_back("  uniform model (no replay: " + g.replayAbsent + ")");
        }
        for (const auto& c : result.cells) {
            if (sameGroup(c, g) && c.queue) {
                lines.push_back("  " + pad(c.style, styleWidth) + " lag " + fixed(c.queue->medianLagMs, "%.3f")
                    + " ms, queue " + fixed(c.queue->medianQueueSteps, "%.1f") + " steps (max "
                    + std::to_string(c.queue->maxQueueSteps) + ")"
                    + (c.syncsPerStep ? ", " + fixed(*c.syncsPerStep, "%.2f") + " syncs/step" : "")
                    + (c.graphReplays >= 0 ? ", " + std::to_string(c.graphReplays) + " replays" : ""));
            }
        }
    }
    for (const auto& c : result.cells) {
        if (!c.ok)
            lines.push_back("failed: " + c.model + "/" + c.mode + "/" + c.style
                + sweepPointSuffix(sweptKeys(result.config), c) + ": " + c.error);
    }
    return lines;
}

} // namespace

std::string groupLabel(const ExperimentResult& result, const GroupKey& group)
{
    const bool manyModes = result.config.modes.size() > 1;
    return (manyModes ? group.model + "/" + group.mode : group.model)
        + sweepPointSuffix(sweptKeys(result.config), group);
}

std::string formatTable(const ExperimentResult& result, int columns)
{
    const Grid grid = gridOf(result);
    std::string out;
    for (const auto& block : blocksFitting(grid, columns))
        out += (out.empty() ? "" : "\n") + gridText(grid, block, columns);
    for (const auto& line : notes(result, grid.styleWidth))
        out += wrapped(line, columns);
    out += formatNoiseVerdicts(result);
    // Last, so that nobody reads a CPU run's overheads as a queue's: there is none to explain them.
    // A GPU run whose queue was not probed (a data-parallel rank) says why instead.
    const auto& groups = result.groups;
    if (!groups.empty()
        && std::none_of(groups.begin(), groups.end(), [](const GroupResult& g) { return g.regime.available; })) {
        const std::string& reason = groups.front().regime.reason;
        if (reason == noQueueOnCpu) {
            out += wrapped("No GPU queue to explain: on the CPU a sync waits for no queued work, so every overhead "
                           "above is the host's own cost of the style.",
                columns);
        } else {
            out += wrapped("The GPU's queue was not probed ("
                    + (reason.empty() ? std::string("no reason recorded") : reason)
                    + "): no overhead above is explained by it.",
                columns);
        }
    }
    return out;
}

std::string formatNoiseVerdicts(const ExperimentResult& result)
{
    std::string reasons;
    for (const auto& g : result.groups) {
        for (const std::string& reason : noiseReasons(g))
            reasons += "  " + groupLabel(result, groupKeyOf(g)) + ": " + reason + "\n";
    }
    if (reasons.empty())
        return "";
    return "TOO NOISY to tell styles apart: no overhead above is a finding.\n" + reasons
        + "  More rounds (time_budget_s, blocks) or a quieter machine narrow the noise.\n";
}

std::string summaryCsv(const ExperimentResult& result)
{
    std::string out = "model,mode,style,host_work_us,batch,status,steps_measured,warmup_steps,step_ms_median,step_ms_"
                      "p10,step_ms_p90,"
                      "step_ms_mean,overhead_pct,overhead_ci_low_pct,overhead_ci_high_pct,naive_best_of_pct,verdict,"
                      "error\n";
    for (const auto& c : result.cells) {
        const bool measured = c.stepsMeasured > 0;
        const auto ms = [&](double v) { return measured ? fixed(v, "%.6f") : std::string(); };
        out += c.model + "," + c.mode + "," + c.style + "," + std::to_string(c.hostWorkUs) + ","
            + std::to_string(c.batch) + "," + (c.ok ? "ok" : "failed") + "," + std::to_string(c.stepsMeasured) + ","
            + std::to_string(c.warmupSteps) + "," + ms(c.stepMs.median) + "," + ms(c.stepMs.p10) + ","
            + ms(c.stepMs.p90) + "," + ms(c.stepMs.mean) + ",";
        if (c.overheadPct) {
            out += fixed(c.overheadPct->estimate, "%.4f") + "," + fixed(c.overheadPct->low, "%.4f") + ","
                + fixed(c.overheadPct->high, "%.4f");
        } else {
            out += ",,";
        }
        out += "," + (c.naiveBestOfPct ? fixed(*c.naiveBestOfPct, "%.4f") : std::string()) + ","
            + (c.verdict ? toString(*c.verdict) : "") + "," + csvField(c.error) + "\n";
    }
    return out;
}

} // namespace synctax
