#include "core/trace/tracewhatif.h"

#include "core/config/inputsource.h"
#include "core/config/stylecatalog.h"
#include "core/queuemodel/bisection.h"
#include "core/queuemodel/simulationbounds.h"
#include "core/statistics/statistics.h"
#include "core/text/format.h"
#include "core/trace/tracejoin.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <tuple>
#include <utility>

namespace synctax {

namespace {

// The host scale at which the loop as recorded runs at stepMs in steady state, where it moves the
// step time at all; nullopt where the step time does not follow the host (a GPU-bound loop).
std::optional<double> hostScaleForStep(const StepSequence& seq, const ImportedLoop& loop, double stepMs)
{
    const auto stepAt = [&](double scale) {
        ReplayCalibration c = loop.calibration;
        c.perEventUs = 0;
        c.hostScale = scale;
        ReplayOptions o;
        o.syncUs = loop.costs.syncUs;
        o.queueCapacity = 1021;
        return predictStyles(calibrated(seq, c), { { baselineStyle(), 0 } }, 0, o, loop.costs).front().stepMs;
    };
    double lo = 0.02, hi = 4;
    if (stepAt(lo) > stepMs || stepAt(hi) < stepMs)
        return std::nullopt;
    return bisect(stepAt, lo, hi, stepMs, 60, Halving::Geometric);
}

// The same with the profiler's cost per recorded host event as the unknown: the step time falls as
// the cost grows. nullopt where stepMs is out of its reach.
std::optional<double> perEventCostForStep(
    const StepSequence& seq, const ImportedLoop& loop, double stepMs, double largestCost)
{
    const auto stepAt = [&](double cost) {
        ReplayCalibration c = loop.calibration;
        c.perEventUs = cost;
        c.hostScale = 1;
        ReplayOptions o;
        o.syncUs = loop.costs.syncUs;
        return predictStyles(calibrated(seq, c), { { baselineStyle(), 0 } }, 0, o, loop.costs).front().stepMs;
    };
    double lo = 0, hi = largestCost;
    if (stepAt(lo) < stepMs || stepAt(hi) > stepMs)
        return std::nullopt;
    return bisect([&](double cost) { return -stepAt(cost); }, lo, hi, -stepMs, 60, Halving::Arithmetic);
}

// The innermost user Python frame of each sync of step `index`, in the order launchSequences put
// them in `step` (by their start and end offsets); none where they do not match one for one.
std::vector<std::string> syncFrames(const TraceReport& report, std::size_t index, const StepSequence& step)
{
    const std::int64_t stepStart = report.steps[index].startNs;
    std::vector<std::tuple<double, double, std::string>> syncs;
    for (const TraceSync& sync : report.syncs) {
        if (sync.step != int(index))
            continue;
        const bool hasSite = sync.site >= 0 && std::size_t(sync.site) < report.sites.size();
        syncs.emplace_back(double(sync.startNs - stepStart) * 1e-3, double(sync.endNs - stepStart) * 1e-3,
            hasSite ? report.sites[std::size_t(sync.site)].python.value_or("") : "");
    }
    std::sort(syncs.begin(), syncs.end());
    if (syncs.size() != step.syncAtUs.size())
        return {};
    std::vector<std::string> frames;
    for (std::size_t i = 0; i < syncs.size(); ++i) {
        if (std::get<0>(syncs[i]) != step.syncAtUs[i])
            return {};
        frames.push_back(std::get<2>(syncs[i]));
    }
    return frames;
}

// The host map that puts the trace's phases at the unprofiled phase times ms (F, B, O).
std::vector<std::pair<double, double>> phaseKnots(const LoopPhaseBounds& bounds, const std::array<double, 3>& ms)
{
    return { { 0.0, 0.0 }, { *bounds.backwardUs, ms[0] * 1e3 }, { *bounds.optimizerUs, (ms[0] + ms[1]) * 1e3 },
        { *bounds.optimizerEndUs, (ms[0] + ms[1] + ms[2]) * 1e3 } };
}

} // namespace

ImportedLoop importedLoop(const KinetoTrace& trace, const TraceReport& report, const ImportedLoopOptions& options)
{
    ImportedLoop loop;
    if (!report.impossible.empty()) {
        loop.reason = "the trace holds events that cannot happen: see its first note";
        return loop;
    }
    const TraceJoin join = joinLaunches(trace); // once, for the steps and the GPU's gap
    const std::vector<StepSequence> steps = launchSequences(trace, report, join);
    if (steps.empty()) {
        loop.reason = "the trace has no steps";
        return loop;
    }
    const size_t median = medianStepIndex(steps);
    const StepSequence& step = steps[median];
    if (step.ops.empty()) {
        const int launches = report.steps[median].launches;
        loop.reason = launches > 0 ? "its median step's " + std::to_string(launches)
                + " launches have no GPU work in the trace to replay: recorded without ProfilerActivity.CUDA?"
                                   : "its steps launch no GPU work";
        return loop;
    }
    loop.available = true;
    loop.profiled = step;
    loop.profiledSyncFrames = syncFrames(report, median, step);
    loop.queuedGapUs = queuedGpuGapUs(trace, join);
    loop.stepsMarked = report.stepsMarked;
    // A trace without step markers is one window over several iterations: no phases of one step.
    if (report.stepsMarked)
        loop.phases = loopPhaseBounds(trace, report)[median];
    if (report.stepsMarked && !report.steps.empty())
        loop.recordedTaxPct = report.taxPct;
    return recalibrated(std::move(loop), options);
}

ImportedLoop recalibrated(ImportedLoop loop, const ImportedLoopOptions& options)
{
    if (!loop.available)
        return loop;
    const StepSequence& step = loop.profiled;
    loop.calibration = {};
    loop.options = options;
    loop.ignored.clear();
    loop.calibrated = false;
    // A queued op starts that long after the one before it ends, which its recorded duration
    // leaves out (the runner's capture fits the same gap to its measured G).
    loop.calibration.gpuGapUs = loop.queuedGapUs.value_or(0);
    loop.recordedSyncsPerStep = double(step.syncAtUs.size());
    loop.hostEventsPerStep = double(step.hostEventUs.size());
    const double profiledHostUs = std::max(1.0, step.stepHostUs - syncWaitsUs(step));
    loop.profiledHostMs = profiledHostUs * 1e-3;
    loop.costs.syncUs = options.syncUs;
    loop.costs.repeatSyncUs = std::min(options.repeatSyncUs, options.syncUs); // no dearer than the first read
    loop.costs.source = "defaults for a Python loop on the H200";

    // The GPU ops as recorded (CUPTI times them without the host's inflation); the profiler's cost
    // taken out at each recorded host event, where it was paid (up to 95% of the host's time).
    const double events = std::max(1.0, loop.hostEventsPerStep);
    const double largestCost = 0.95 * profiledHostUs / events;
    loop.calibration.perEventUs = std::clamp(options.profilerUsPerEvent, 0.0, largestCost);
    const double unprofiledUs = std::max(1.0, profiledHostUs - loop.calibration.perEventUs * events);
    loop.calibration.hostUncertaintyPct = 100.0 * options.profilerUsPerEventUncertainty * events / unprofiledUs;
    loop.uncertaintyHow
        = "uncalibrated: no unprofiled timing of the loop was given, so the profiler's cost is assumed at "
        + formatNumber("%.1f", options.profilerUsPerEvent) + " +- "
        + formatNumber("%.1f", options.profilerUsPerEventUncertainty)
        + " us per recorded host event; each row's range is the replay at either end";
    loop.calibration.how = "the profiler's " + formatNumber("%.2f", loop.calibration.perEventUs)
        + " us per recorded host event (" + formatNumber("%.0f", loop.hostEventsPerStep) + " per step) taken out";
    const LoopPhaseBounds& bounds = loop.phases;
    const std::optional<std::array<double, 3>> phasesMs
        = options.phasesMs || options.phasesSpreadMs.empty() ? options.phasesMs : medianPhases(options.phasesSpreadMs);
    if (phasesMs && bounds.complete()) {
        const std::array<double, 3>& ms = *phasesMs;
        loop.calibration.perEventUs = 0;
        loop.calibration.hostUncertaintyPct = options.timingUncertaintyPct;
        loop.calibrated = true;
        loop.uncertaintyHow = "calibrated to the phases given; each row's range is the replay with the host "
            + formatNumber("%.0f", options.timingUncertaintyPct)
            + "% faster and slower, as one timing moves over a run";
        loop.calibration.hostKnots = phaseKnots(bounds, ms);
        loop.calibration.how = "the trace's forward, backward and optimizer ("
            + formatNumber("%.1f", *bounds.backwardUs * 1e-3) + ", "
            + formatNumber("%.1f", (*bounds.optimizerUs - *bounds.backwardUs) * 1e-3) + ", "
            + formatNumber("%.1f", (*bounds.optimizerEndUs - *bounds.optimizerUs) * 1e-3)
            + " ms as recorded) mapped onto the unprofiled " + formatNumber("%.1f", ms[0]) + ", "
            + formatNumber("%.1f", ms[1]) + ", " + formatNumber("%.1f", ms[2]) + " ms";
        if (!options.phasesSource.empty())
            loop.calibration.how += " (" + options.phasesSource + ")";
        if (options.stepMs)
            loop.ignored.push_back("the step time given (" + formatNumber("%.2f", *options.stepMs)
                + " ms): the phase times take its place");
    } else if (options.stepMs) {
        if (const auto cost = perEventCostForStep(step, loop, *options.stepMs, largestCost)) {
            loop.calibration.perEventUs = *cost;
            loop.calibration.hostUncertaintyPct = options.timingUncertaintyPct;
            loop.calibrated = true;
            loop.calibration.how = "the profiler's " + formatNumber("%.2f", *cost)
                + " us per recorded host event taken out, fitted to the unprofiled step of "
                + formatNumber("%.2f", *options.stepMs) + " ms";
        } else if (const auto scale = hostScaleForStep(step, loop, *options.stepMs)) {
            loop.calibration.perEventUs = 0;
            loop.calibration.hostScale = *scale;
            loop.calibration.hostUncertaintyPct = options.timingUncertaintyPct;
            loop.calibrated = true;
            loop.calibration.how = "host x " + formatNumber("%.2f", *scale) + ": fitted to the unprofiled step of "
                + formatNumber("%.2f", *options.stepMs) + " ms";
        } else {
            loop.ignored.push_back("the step time given (" + formatNumber("%.2f", *options.stepMs)
                + " ms): out of the host's reach, the GPU alone takes longer");
        }
        if (loop.calibrated)
            loop.uncertaintyHow = "calibrated to the step time given; each row's range is the replay with the host "
                + formatNumber("%.0f", options.timingUncertaintyPct)
                + "% faster and slower, as one timing moves over a run";
    }
    if (phasesMs && !bounds.complete())
        loop.ignored.push_back(std::string("the phase times given: the trace ")
            + (loop.stepsMarked ? "marks no backward and optimizer step in its steps" : "marks no steps"));
    loop.calibration.hostScale *= options.hostFactor;
    if (loop.queuedGapUs)
        loop.calibration.how
            += "; GPU ops " + formatNumber("%.2f", *loop.queuedGapUs) + " us apart where queued, as recorded";
    loop.recorded = calibrated(step, loop.calibration);
    loop.base = withoutSyncs(loop.recorded);
    loop.spreadRecorded.clear();
    loop.spreadBase.clear();
    if (!options.phasesSpreadMs.empty() && bounds.complete()) {
        const std::vector<std::array<double, 3>> hosts = spreadQuantiles(options.phasesSpreadMs);
        for (const std::array<double, 3>& ms : hosts) {
            ReplayCalibration c = loop.calibration;
            c.hostKnots = phaseKnots(bounds, ms);
            loop.spreadRecorded.push_back(calibrated(step, c));
            loop.spreadBase.push_back(withoutSyncs(loop.spreadRecorded.back()));
        }
        const auto totalMs = [](const std::array<double, 3>& ms) { return ms[0] + ms[1] + ms[2]; };
        // The blocks measure the host's spread, which the replay averages over; what remains
        // unknown is their mean: its 95% interval from the blocks' own scatter.
        std::vector<double> totals;
        totals.reserve(options.phasesSpreadMs.size());
        for (const auto& ms : options.phasesSpreadMs)
            totals.push_back(totalMs(ms));
        const double n = double(totals.size());
        const double average = mean(totals);
        double squares = 0;
        for (const double t : totals)
            squares += (t - average) * (t - average);
        const double sd = n > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
        const double meanPct
            = n > 1 && average > 0 ? 100.0 * 1.96 * sd / std::sqrt(n) / average : options.timingUncertaintyPct;
        loop.calibration.hostUncertaintyPct = std::max(1.0, meanPct);
        loop.uncertaintyHow = "calibrated to " + std::to_string(options.phasesSpreadMs.size())
            + " blocks' phases; each row's range is the replay with the host "
            + formatNumber("%.1f", loop.calibration.hostUncertaintyPct)
            + "% faster and slower (the 95% interval of the blocks' mean host time, at least 1%)";
        loop.calibration.how += "; replayed at " + std::to_string(hosts.size()) + " of "
            + std::to_string(options.phasesSpreadMs.size()) + " phase timings (host "
            + formatNumber("%.1f", totalMs(hosts.front())) + " to " + formatNumber("%.1f", totalMs(hosts.back()))
            + " ms), their log step times averaged";
    }
    return loop;
}

PhasesRead readPhasesMs(const std::string& text, double leastMs)
{
    const NumberKey bound { "phases_ms", leastMs, 1e6 };
    std::vector<std::pair<std::string, std::size_t>> parts; // each number and where it starts
    std::string part;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ',';
        if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
            if (!part.empty())
                parts.emplace_back(part, i - part.size());
            part.clear();
        } else {
            part += c;
        }
    }
    PhasesRead read;
    if (parts.size() != 3) {
        read.problem = "expected three numbers F,B,O (ms), found '" + printable(text) + "'";
        return read;
    }
    std::array<double, 3> ms {};
    for (size_t i = 0; i < 3; ++i) {
        read.problem = printable(outOfBound(bound, parts[i].first));
        if (!read.problem.empty()) {
            read.problemColumn = parts[i].second;
            return read;
        }
        ms[i] = std::stod(parts[i].first);
    }
    read.ms = ms;
    return read;
}

PhasesListRead readPhasesList(const std::string& text)
{
    PhasesListRead read;
    if (text.find_first_not_of(" \t\r\n;") == std::string::npos)
        return read;
    // Read as a file whose lines are the timings: an error's line is the timing's place.
    std::string lines = text;
    std::replace(lines.begin(), lines.end(), ';', '\n');
    const PhasesFileRead file = readPhasesFile(lines, "");
    if (!file.errors.empty()) {
        const ConfigError& e = file.errors.front();
        const bool several = text.find_first_of(";\n") != std::string::npos;
        read.problem = several && e.line > 0 ? "timing " + std::to_string(e.line) + ": " + e.message : e.message;
        return read;
    }
    read.rows = file.rows;
    return read;
}

PhasesFileRead readPhasesFile(const std::string& text, const std::string& sourceName, double leastMs)
{
    PhasesFileRead read;
    std::size_t start = 0;
    bool headerAllowed = true;
    for (int line = 1; start <= text.size(); ++line) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string row = text.substr(start, end - start);
        start = end + 1;
        row = row.substr(0, row.find('#'));
        if (!row.empty() && row.back() == '\r')
            row.pop_back();
        if (row.find_first_not_of(" \t,") == std::string::npos)
            continue;
        const bool hasDigit
            = std::any_of(row.begin(), row.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (std::exchange(headerAllowed, false) && !hasDigit)
            continue;
        const PhasesRead phases = readPhasesMs(row, leastMs);
        if (phases.ms)
            read.rows.push_back(*phases.ms);
        else
            read.errors.push_back({ sourceName, line, int(phases.problemColumn) + 1, phases.problem });
    }
    if (read.rows.empty() && read.errors.empty())
        read.errors.push_back({ sourceName, 0, 0, "expected lines of three numbers F,B,O (ms), found none" });
    return read;
}

PhasesFileRead loadPhasesFile(const std::string& path)
{
    PhasesFileRead read;
    if (const auto text = readInputFile(path, "a file of phase times (F,B,O per line)", read.errors))
        return readPhasesFile(*text, path);
    return read;
}

std::vector<std::array<double, 3>> spreadQuantiles(std::vector<std::array<double, 3>> rows)
{
    const auto total = [](const std::array<double, 3>& r) { return r[0] + r[1] + r[2]; };
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) { return total(a) < total(b); });
    if (rows.size() <= kSpreadHosts)
        return rows;
    std::vector<std::array<double, 3>> picked;
    for (std::size_t i = 0; i < kSpreadHosts; ++i)
        picked.push_back(rows[std::size_t((double(i) + 0.5) / double(kSpreadHosts) * double(rows.size()))]);
    return picked;
}

std::array<double, 3> medianPhases(const std::vector<std::array<double, 3>>& rows)
{
    std::array<double, 3> ms {};
    for (std::size_t p = 0; p < 3; ++p) {
        std::vector<double> values;
        values.reserve(rows.size());
        for (const auto& r : rows)
            values.push_back(r[p]);
        ms[p] = values.empty() ? 0 : median(values);
    }
    return ms;
}

std::vector<StyleSpec> whatIfStyles()
{
    std::vector<StyleSpec> styles;
    for (const StyleInfo& s : styleCatalog())
        styles.push_back({ s.name, s.defaultN });
    return styles;
}

namespace {

// Each style's steady-state step time on the loop (as_recorded first), the mean of the log step
// times over the spread's hosts where it has them.
std::vector<double> replayedStepMs(
    const ImportedLoop& loop, const ReplayOptions& o, const std::vector<StyleSpec>& styles)
{
    const bool spread = !loop.spreadBase.empty();
    const std::size_t hosts = spread ? loop.spreadBase.size() : 1;
    std::vector<double> logMs(styles.size() + 1, 0.0);
    for (std::size_t h = 0; h < hosts; ++h) {
        const StepSequence& base = spread ? loop.spreadBase[h] : loop.base;
        const StepSequence& recorded = spread ? loop.spreadRecorded[h] : loop.recorded;
        logMs[0] += std::log(predictStyles(recorded, { { baselineStyle(), 0 } }, 0, o, loop.costs).front().stepMs);
        const std::vector<StyleReplayPrediction> predicted = predictStyles(base, styles, 0, o, loop.costs);
        for (std::size_t i = 0; i < predicted.size(); ++i)
            logMs[i + 1] += std::log(predicted[i].stepMs);
    }
    std::vector<double> stepMs;
    stepMs.reserve(logMs.size());
    for (const double l : logMs)
        stepMs.push_back(std::exp(l / double(hosts)));
    return stepMs;
}

// Each style's tax against the baseline (whatIfStyles puts it first), as_recorded first.
std::vector<double> taxesPct(const std::vector<double>& stepMs, const std::vector<StyleSpec>& styles)
{
    const double baseMs = styles.front().name == baselineStyle() ? stepMs[1] : 0;
    std::vector<double> taxes;
    taxes.reserve(stepMs.size());
    for (const double ms : stepMs)
        taxes.push_back(baseMs > 0 ? (ms / baseMs - 1.0) * 100.0 : 0.0);
    return taxes;
}

// FILE and LINE of "FILE:LINE"; line 0 where it is not one.
std::pair<std::string, int> fileAndLine(const std::string& site)
{
    const std::size_t colon = site.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= site.size()
        || !std::all_of(site.begin() + std::ptrdiff_t(colon) + 1, site.end(),
            [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return { site, 0 };
    return { site.substr(0, colon), std::atoi(site.c_str() + colon + 1) };
}

bool endsWithPath(const std::string& path, const std::string& tail)
{
    return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0
        && path[path.size() - tail.size() - 1] == '/';
}

// Whether a Python frame ("/home/u/train.py(87): <module>") is at FILE:LINE: the same line, and
// the same file, or one the other's path ends with (the probe names a file under the working
// folder relative to it, the trace as Python named it).
bool frameAt(const std::string& frame, const std::string& file, int line)
{
    const std::size_t close = frame.find("): ");
    const std::size_t open = close == std::string::npos ? std::string::npos : frame.rfind('(', close);
    if (open == std::string::npos || open == 0)
        return false;
    const std::string frameFile = frame.substr(0, open);
    const std::string number = frame.substr(open + 1, close - open - 1);
    if (number.empty()
        || !std::all_of(
            number.begin(), number.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })
        || std::atoi(number.c_str()) != line)
        return false;
    return frameFile == file || endsWithPath(frameFile, file) || endsWithPath(file, frameFile);
}

// The loop as recorded and without the marked syncs, the mean of their log step times over the
// spread's hosts where it has them: {as recorded, without}.
std::pair<double, double> lineStepMs(const ImportedLoop& loop, const ReplayOptions& o, const std::vector<bool>& drop)
{
    const bool spread = !loop.spreadRecorded.empty();
    const std::size_t hosts = spread ? loop.spreadRecorded.size() : 1;
    double logRecorded = 0;
    double logWithout = 0;
    for (std::size_t h = 0; h < hosts; ++h) {
        const StepSequence& recorded = spread ? loop.spreadRecorded[h] : loop.recorded;
        const std::vector<StyleSpec> baseline { { baselineStyle(), 0 } };
        logRecorded += std::log(predictStyles(recorded, baseline, 0, o, loop.costs).front().stepMs);
        logWithout += std::log(predictStyles(withoutSyncs(recorded, drop), baseline, 0, o, loop.costs).front().stepMs);
    }
    return { std::exp(logRecorded / double(hosts)), std::exp(logWithout / double(hosts)) };
}

ReplayOptions replayOptions(const ImportedLoop& loop, double hostWorkUs, bool hostWorkBeforeSync)
{
    ReplayOptions o;
    o.hostWorkUs = hostWorkUs;
    o.hostWorkBeforeSync = hostWorkBeforeSync;
    o.syncUs = loop.costs.syncUs;
    return o;
}

// The interval's two ends: `f` called with the loop calibrated with its host faster and slower by
// its uncertainty (not at all where it has none).
template <typename F> void eachHostBound(const ImportedLoop& loop, F f)
{
    const double u = std::clamp(loop.calibration.hostUncertaintyPct, 0.0, 90.0) / 100.0;
    if (u <= 0)
        return;
    for (const double factor : { 1.0 - u, 1.0 + u }) {
        ImportedLoopOptions options = loop.options;
        options.hostFactor = loop.options.hostFactor * factor;
        f(recalibrated(loop, options));
    }
}

std::optional<WhatIfLine> withoutLineAt(
    const ImportedLoop& loop, const std::string& site, double hostWorkUs, bool hostWorkBeforeSync, std::string* why)
{
    const auto none = [&](std::string reason) {
        if (why)
            *why = std::move(reason);
        return std::nullopt;
    };
    if (!loop.available)
        return none("the loop is not available: " + loop.reason);
    const auto [file, line] = fileAndLine(site);
    if (line <= 0)
        return none("'" + site + "' is no FILE:LINE");
    const std::size_t syncs = loop.profiledSyncFrames.size();
    if (syncs != loop.profiled.syncAtUs.size()
        || std::all_of(loop.profiledSyncFrames.begin(), loop.profiledSyncFrames.end(),
            [](const std::string& f) { return f.empty(); }))
        return none(syncs == 0 && loop.profiled.syncAtUs.empty()
                ? "the captured step has no sync"
                : "the capture names no Python line of its syncs (recorded without with_stack=True)");
    std::vector<bool> drop(syncs);
    for (std::size_t i = 0; i < syncs; ++i)
        drop[i] = frameAt(loop.profiledSyncFrames[i], file, line);
    WhatIfLine w;
    w.site = site;
    w.syncs = int(std::count(drop.begin(), drop.end(), true));
    w.otherSyncs = int(syncs) - w.syncs;
    if (w.syncs == 0)
        return none("no sync of the captured step is at " + site);
    const ReplayOptions o = replayOptions(loop, hostWorkUs, hostWorkBeforeSync);
    const auto change = [&](const ImportedLoop& l) {
        const auto [recorded, without] = lineStepMs(l, o, drop);
        return std::make_pair(without, (without / recorded - 1.0) * 100.0);
    };
    std::tie(w.stepMs, w.changePct) = change(loop);
    w.changeLowPct = w.changePct;
    w.changeHighPct = w.changePct;
    eachHostBound(loop, [&](const ImportedLoop& bound) {
        const double other = change(bound).second;
        w.changeLowPct = std::min(w.changeLowPct, other);
        w.changeHighPct = std::max(w.changeHighPct, other);
    });
    return w;
}

} // namespace

std::optional<WhatIfLine> whatIfWithoutLine(
    const ImportedLoop& loop, const std::string& site, double hostWorkUs, std::string* why)
{
    return withoutLineAt(loop, site, hostWorkUs, false, why);
}

WhatIf whatIf(const ImportedLoop& loop, double hostWorkUs, bool hostWorkBeforeSync)
{
    WhatIf w;
    w.hostWorkUs = hostWorkUs;
    w.hostWorkBeforeSync = hostWorkBeforeSync;
    if (!loop.available)
        return w;
    const ReplayOptions o = replayOptions(loop, hostWorkUs, hostWorkBeforeSync);
    const std::vector<StyleSpec> styles = whatIfStyles();
    const std::vector<double> stepMs = replayedStepMs(loop, o, styles);
    const std::vector<double> taxes = taxesPct(stepMs, styles);
    std::vector<double> low = taxes;
    std::vector<double> high = taxes;
    eachHostBound(loop, [&](const ImportedLoop& bound) {
        const std::vector<double> other = taxesPct(replayedStepMs(bound, o, styles), styles);
        for (std::size_t i = 0; i < taxes.size(); ++i) {
            low[i] = std::min(low[i], other[i]);
            high[i] = std::max(high[i], other[i]);
        }
    });
    w.rows.push_back({ "as_recorded", 0, stepMs[0], taxes[0], low[0], high[0] });
    for (std::size_t i = 0; i < styles.size(); ++i)
        w.rows.push_back({ styles[i].name, styles[i].n, stepMs[i + 1], taxes[i + 1], low[i + 1], high[i + 1] });
    w.model = "replay of the median step (" + std::to_string(loop.base.ops.size()) + " launches); "
        + loop.calibration.how + "; sync " + formatNumber("%.0f", loop.costs.syncUs) + " us";
    w.uncertaintyPct = loop.calibration.hostUncertaintyPct;
    w.uncertaintyHow = loop.uncertaintyHow;
    w.calibrated = loop.calibrated;
    if (!loop.options.withoutLine.empty())
        w.withoutLine
            = withoutLineAt(loop, loop.options.withoutLine, hostWorkUs, hostWorkBeforeSync, &w.withoutLineWhy);
    return w;
}

} // namespace synctax
