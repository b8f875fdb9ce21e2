#include "core/files/resulttable.h"

#include "core/analysis/processmerge.h"
#include "core/config/stylecatalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace synctax {

namespace {

std::string fixed(double v, const char* format)
{
    if (!std::isfinite(v))
        return "";
    char text[64];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

std::string pad(const std::string& s, size_t width, bool right = false)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string quoted = "\"";
    for (char c : s) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
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
    const bool noise = c.verdict == Verdict::WithinNoise;
    text += formatOverhead(*c.overheadPct) + (noise ? " ~" : "");
    if (c.prediction)
        text += "  pred " + fixed(c.prediction->overheadPct, "%+.1f%%");
    return text;
}

} // namespace

std::string formatOverhead(const Interval& pct)
{
    return fixed(pct.estimate, "%+.1f%%") + " [" + fixed(pct.low, "%+.1f") + ", " + fixed(pct.high, "%+.1f") + "]";
}

std::string formatTable(const ExperimentResult& result)
{
    std::vector<std::string> groups; // "model" or "model/mode", in run order
    std::vector<std::string> styles;
    std::map<std::pair<std::string, std::string>, const CellResult*> byGroupStyle;
    const bool manyModes = result.config.modes.size() > 1;
    for (const auto& c : result.cells) {
        const std::string group = manyModes ? c.model + "/" + c.mode : c.model;
        if (std::find(groups.begin(), groups.end(), group) == groups.end())
            groups.push_back(group);
        if (std::find(styles.begin(), styles.end(), c.style) == styles.end())
            styles.push_back(c.style);
        byGroupStyle[{ group, c.style }] = &c;
    }
    size_t styleWidth = 5;
    for (const auto& s : styles)
        styleWidth = std::max(styleWidth, s.size());
    std::vector<size_t> widths;
    for (const auto& g : groups) {
        size_t w = g.size();
        for (const auto& s : styles) {
            if (auto it = byGroupStyle.find({ g, s }); it != byGroupStyle.end())
                w = std::max(w, cellText(*it->second).size());
        }
        widths.push_back(w);
    }

    std::string out = pad("style", styleWidth);
    for (size_t i = 0; i < groups.size(); ++i)
        out += " | " + pad(groups[i], widths[i]);
    out += "\n" + std::string(styleWidth, '-');
    for (size_t w : widths)
        out += "-+-" + std::string(w, '-');
    out += "\n";
    for (const auto& s : styles) {
        out += pad(s, styleWidth);
        for (size_t i = 0; i < groups.size(); ++i) {
            auto it = byGroupStyle.find({ groups[i], s });
            out += " | " + pad(it == byGroupStyle.end() ? "" : cellText(*it->second), widths[i]);
        }
        out += "\n";
    }
    const bool processes = spreadOverProcesses(result);
    out += std::string("ms = mean ms/step; overhead vs 'none' of the same model: trimmed geometric mean of paired "
                       "block ratios ")
        + (processes ? "[95% CI across processes, Student's t]" : "[95% bootstrap CI]")
        + "; ~ = within noise (the interval includes 0 or the estimate is under the aa_control noise floor)\n";
    const bool predicted = std::any_of(
        result.cells.begin(), result.cells.end(), [](const CellResult& c) { return c.prediction.has_value(); });
    if (predicted)
        out += "pred = the queue model's overhead, simulated from the group's measured D, G, L, K and H\n";
    for (const auto& g : result.groups) {
        const std::string name = manyModes ? g.model + "/" + g.mode : g.model;
        out += name + ": " + std::to_string(g.rounds) + " rounds (" + g.stopReason + ")";
        if (g.processRounds.size() > 1) {
            std::string split;
            for (int r : g.processRounds)
                split += (split.empty() ? "" : "+") + std::to_string(r);
            out += " in " + std::to_string(g.processRounds.size()) + " processes (" + split + ")";
        }
        out += ", noise floor " + fixed(g.noiseFloorPct, "%.1f") + "%";
        if (g.drift)
            out += ", drift " + fixed(g.drift->pct, "%+.1f") + "%" + (g.drift->flagged ? " FLAGGED" : "");
        if (g.clocks.available) {
            out += ", SM clock " + std::to_string(g.clocks.minMhz) + "-" + std::to_string(g.clocks.maxMhz) + " MHz";
            if (g.clocks.lowClockBlocks > 0)
                out += " (" + std::to_string(g.clocks.lowClockBlocks) + " blocks under 75% of "
                    + std::to_string(g.clocks.defaultMhz) + " MHz)";
        }
        out += "\n";
        if (g.regime.available) {
            out += "  regime " + g.regime.label + ": D " + fixed(g.regime.dMs, "%.3f") + " ms"
                + (g.regime.queueLimited ? " (queue-limited)" : "") + ", G " + fixed(g.regime.gMs, "%.3f") + " ms, L "
                + fixed(g.regime.lUs, "%.1f") + " us, K " + (g.regime.k > 0 ? std::to_string(g.regime.k) : "?") + ", H "
                + fixed(g.regime.hUs, "%.0f") + " us\n";
        }
        for (const auto& c : result.cells) {
            if (c.model == g.model && c.mode == g.mode && c.queue) {
                out += "  " + pad(c.style, styleWidth) + " lag " + fixed(c.queue->medianLagMs, "%.3f") + " ms, queue "
                    + fixed(c.queue->medianQueueSteps, "%.1f") + " steps (max " + std::to_string(c.queue->maxQueueSteps)
                    + ")" + (c.syncsPerStep ? ", " + fixed(*c.syncsPerStep, "%.2f") + " syncs/step" : "")
                    + (c.graphReplays >= 0 ? ", " + std::to_string(c.graphReplays) + " replays" : "") + "\n";
            }
        }
    }
    for (const auto& c : result.cells) {
        if (!c.ok)
            out += "failed: " + c.model + "/" + c.mode + "/" + c.style + ": " + c.error + "\n";
    }
    return out;
}

std::string summaryCsv(const ExperimentResult& result)
{
    std::string out = "model,mode,style,status,steps_measured,warmup_steps,step_ms_median,step_ms_p10,step_ms_p90,"
                      "step_ms_mean,overhead_pct,overhead_ci_low_pct,overhead_ci_high_pct,naive_best_of_pct,verdict,"
                      "error\n";
    for (const auto& c : result.cells) {
        const bool measured = c.stepsMeasured > 0;
        const auto ms = [&](double v) { return measured ? fixed(v, "%.6f") : std::string(); };
        out += c.model + "," + c.mode + "," + c.style + "," + (c.ok ? "ok" : "failed") + ","
            + std::to_string(c.stepsMeasured) + "," + std::to_string(c.warmupSteps) + "," + ms(c.stepMs.median) + ","
            + ms(c.stepMs.p10) + "," + ms(c.stepMs.p90) + "," + ms(c.stepMs.mean) + ",";
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
