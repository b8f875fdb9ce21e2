#include "core/probe/probefolder.h"

#include "core/config/configerror.h"
#include "core/config/inputsource.h"
#include "core/probe/probelines.h"
#include "core/statistics/statistics.h"
#include "core/text/format.h"
#include "core/text/textwrap.h"
#include "core/trace/tracewhatif.h"
#include "core/trace/tracewhatiftable.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <type_traits>

namespace synctax {

namespace {

namespace fs = std::filesystem;

// A file of the folder through one of the follower's parsers (probelines.h): its value, or an
// error located in the file.
template <typename Parse>
std::invoke_result_t<Parse, const std::string&, ConfigError&> readWith(
    const fs::path& path, Parse parse, std::vector<ConfigError>& errors)
{
    const auto text = readInputFile(path.string(), "the probe's JSON", errors);
    if (!text)
        return std::nullopt;
    ConfigError error;
    auto value = parse(*text, error);
    if (!value) {
        error.file = path.string();
        errors.push_back(std::move(error));
    }
    return value;
}

// ab.json into the folder; an A/B without an estimate is a note.
void readAb(const fs::path& path, ProbeFolder& folder, std::vector<ConfigError>& errors)
{
    auto ab = readWith(path, parseProbeAb, errors);
    if (!ab)
        return;
    static_cast<ProbeAb&>(folder) = std::move(*ab);
    if (!folder.reason.empty())
        folder.notes.push_back("the A/B has no estimate: " + folder.reason);
}

// Each line of a .jsonl file the probe wrote, parsed and handed to `take`; lines without `only` in
// them are passed over unparsed. A line that does not read is a note, located ("FILE:LINE:COL: what
// was expected: " + `consequence`), and false; an unfinished last line (the job still writing, or
// killed mid-line) is left out.
template <typename Parse, typename Take>
bool eachLine(
    const fs::path& path, Parse parse, Take take, std::vector<ConfigError>& errors, const char* only = nullptr)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (only && line.find(only) == std::string::npos)
            continue;
        ConfigError error;
        auto parsed = parse(line, error);
        if (!parsed) {
            if (in.eof())
                break;
            error.file = path.string();
            error.line = number;
            errors.push_back(std::move(error));
            return false;
        }
        take(std::move(*parsed));
    }
    return true;
}

// steps.jsonl's calibration blocks' first steps (ProbeFolder::blockFirstStepsMs); a line that does
// not read (but the last, cut off by a job killed while writing it) is an error at it.
void readBlockFirstSteps(const fs::path& path, ProbeFolder& folder, std::vector<ConfigError>& errors)
{
    BlockFirstSteps blocks;
    if (eachLine(
            path, parseProbeStep, [&](const ProbeStep& step) { blocks.add(step); }, errors, "\"calib\""))
        folder.blockFirstStepsMs = blocks.take();
}

// Where ab.json is not there (the job has not ended, or was killed): the A/B from blocks.jsonl's
// complete rounds, as the app's live view computes it, with the probe's --bootstrap and --seed; a
// line that does not read (but a cut-off last one) is an error at it.
void readAbOfBlocks(
    const fs::path& path, const ProbeStart& probe, ProbeFolder& folder, std::vector<ConfigError>& errors)
{
    std::vector<ProbeBlock> blocks;
    if (!eachLine(
            path, parseProbeBlock, [&](ProbeBlock block) { blocks.push_back(std::move(block)); }, errors))
        return;
    if (blocks.empty())
        return;
    ProbeAb ab = abOfBlocks(blocks, liveAb(blocks, probe.resamples, probe.seed), probe.ab);
    if (ab.ab.empty())
        return;
    static_cast<ProbeAb&>(folder) = std::move(ab);
    folder.notes.push_back("no ab.json (the job has not ended, or ended without a word): the A/B from blocks.jsonl's "
        + std::to_string(folder.rounds) + " complete rounds, as the app's live view computes it");
}

// phases.csv as the probe wrote it: a last line without its newline (the job killed while writing
// it) is left out, with a note, rather than refused with the file.
PhasesFileRead readWrittenPhases(const fs::path& path, ProbeFolder& folder)
{
    PhasesFileRead unread;
    std::optional<std::string> text = readInputFile(path.string(), "the probe's phases.csv", unread.errors);
    if (!text)
        return unread;
    if (!text->empty() && text->back() != '\n') {
        const std::size_t kept = text->rfind('\n') + 1; // 0 where there is no newline at all
        const auto line = std::count(text->begin(), text->begin() + std::ptrdiff_t(kept), '\n') + 1;
        folder.notes.push_back(path.string() + ":" + std::to_string(line)
            + ": a cut-off last line (the job stopped while writing it) left out");
        text->resize(kept);
    }
    return readPhasesFile(*text, path.string(), 0.0);
}

double medianHostMs(const std::vector<std::array<double, 3>>& rows)
{
    std::vector<double> totals;
    totals.reserve(rows.size());
    for (const std::array<double, 3>& ms : rows)
        totals.push_back(ms[0] + ms[1] + ms[2]);
    return median(totals);
}

} // namespace

bool isProbeFolder(const std::string& dir)
{
    std::error_code ec;
    return fs::is_directory(dir, ec) && fs::is_regular_file(fs::path(dir) / "probe.json", ec);
}

std::string notARunFolder(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec) || isProbeFolder(dir))
        return {};
    std::vector<std::string> found;
    for (const std::string name : kRunFolderFiles) {
        if (name != "probe.json" && fs::exists(fs::path(dir) / name, ec))
            found.push_back(name);
    }
    std::string why = dir + ": a folder without probe.json, so not a probe run folder";
    if (found.empty())
        why += fs::is_empty(dir, ec) ? " (it is empty)" : " (nor does it hold any file of one)";
    else {
        why += " (it holds ";
        for (std::size_t i = 0; i < found.size(); ++i)
            why += (i ? ", " : "") + found[i];
        why += ", but a run's probe.json is missing)";
    }
    return why
        + "; a run folder is what python3 -m synctax_probe --out DIR writes: probe.json, steps.jsonl, "
          "blocks.jsonl, phases.csv, sites.json, the capture's trace and end.json (docs/probe-folder.md)";
}

ProbeFolderRead readProbeFolder(const std::string& dir)
{
    ProbeFolderRead read;
    const fs::path root(dir);
    ProbeFolder folder;
    folder.dir = dir;
    for (const char* name : kRunFolderFiles) {
        const std::string file = (root / name).string();
        if (const std::string what = unlikeAFile(file); !what.empty())
            read.errors.push_back({ file, 0, 0, "is " + what + "; expected the file python3 -m synctax_probe writes" });
    }
    if (!read.errors.empty())
        return read;
    // probe.json as the follower reads it: a value of the wrong type is located, not thrown.
    const auto probe = readWith(root / "probe.json", parseProbeStart, read.errors);
    if (!probe)
        return read;
    folder.script = probe->script;
    folder.cudaAvailable = probe->cudaAvailable;

    std::error_code ec;
    for (const char* name : { "trace.pt.trace.json.gz", "trace.pt.trace.json" }) {
        if (fs::is_regular_file(root / name, ec)) {
            folder.tracePath = (root / name).string();
            break;
        }
    }
    if (folder.tracePath.empty())
        folder.notes.push_back("no profiled capture in the folder (trace.pt.trace.json): nothing to replay");

    if (fs::is_regular_file(root / "phases.csv", ec)) {
        PhasesFileRead phases = readWrittenPhases(root / "phases.csv", folder);
        // A line refused is the folder refused at it; only a file with no line yet is no error.
        const bool lineRefused
            = std::any_of(phases.errors.begin(), phases.errors.end(), [](const ConfigError& e) { return e.line > 0; });
        if (lineRefused) {
            read.errors.insert(read.errors.end(), phases.errors.begin(), phases.errors.end());
            return read;
        }
        folder.phasesMs = std::move(phases.rows);
    }
    if (folder.phasesMs.empty())
        folder.notes.push_back("no block's phases timed yet (phases.csv): the what-if is not calibrated");

    if (fs::is_regular_file(root / "ab.json", ec))
        readAb(root / "ab.json", folder, read.errors);
    else if (fs::is_regular_file(root / "blocks.jsonl", ec))
        readAbOfBlocks(root / "blocks.jsonl", *probe, folder, read.errors);
    if (!folder.ab.empty() && fs::is_regular_file(root / "steps.jsonl", ec))
        readBlockFirstSteps(root / "steps.jsonl", folder, read.errors);
    folder.ended = fs::is_regular_file(root / "end.json", ec);
    if (!folder.ended)
        folder.notes.push_back("the job has not ended, or ended without a word (no end.json): what is here so far");
    else {
        // What the end says of the probe itself; an end that does not read is a note, not a failure.
        std::vector<ConfigError> endErrors;
        if (const auto end = readWith(root / "end.json", parseProbeEnd, endErrors)) {
            folder.probeUsPerStep = end->probeUsPerStep;
            folder.writerUsPerStep = end->writerUsPerStep;
            folder.end = end;
        } else
            folder.notes.push_back("end.json does not read: " + formatErrors(endErrors));
    }
    if (!read.errors.empty())
        return read;
    read.folder = std::move(folder);
    return read;
}

void BlockFirstSteps::add(const ProbeStep& step)
{
    if (step.style != "calib" || !step.block)
        return;
    const auto [at, added] = m_index.try_emplace(*step.block, m_blocks.size());
    if (added)
        m_blocks.emplace_back();
    std::vector<std::array<double, 3>>& first = m_blocks[at->second];
    if (first.size() >= std::size_t(kBlockFirstSteps))
        return;
    std::array<double, 3> ms {};
    const std::array<std::int64_t, 3> phases { step.fNs, step.bNs, step.oNs };
    for (std::size_t k = 0; k < 3; ++k)
        ms[k] = double(std::max<std::int64_t>(0, phases[k] - step.waitsNs[k])) * 1e-6;
    first.push_back(ms);
}

std::optional<QueueFreePhases> queueFreePhases(const std::vector<std::array<double, 3>>& blockPhasesMs,
    const std::vector<std::vector<std::array<double, 3>>>& blockFirstStepsMs, std::size_t launchesPerStep,
    std::int64_t queueCapacity)
{
    if (blockPhasesMs.empty() || blockFirstStepsMs.empty() || launchesPerStep == 0)
        return std::nullopt;
    QueueFreePhases early;
    early.steps = int(
        std::clamp<std::int64_t>(queueCapacity / std::int64_t(launchesPerStep), 1, std::int64_t(kBlockFirstSteps)));
    for (const std::vector<std::array<double, 3>>& steps : blockFirstStepsMs) {
        if (steps.empty())
            continue;
        const std::size_t k = std::min(steps.size(), std::size_t(early.steps));
        std::array<double, 3> row {};
        for (std::size_t phase = 0; phase < 3; ++phase) {
            std::vector<double> values;
            values.reserve(k);
            for (std::size_t i = 0; i < k; ++i)
                values.push_back(steps[i][phase]);
            // phases.csv's floor, the bound a phases file keeps to (readPhasesMs)
            row[phase] = std::max(0.001, median(values));
        }
        early.rows.push_back(row);
    }
    if (early.rows.empty())
        return std::nullopt;
    early.hostMs = medianHostMs(early.rows);
    early.blocksHostMs = medianHostMs(blockPhasesMs);
    if (!(early.hostMs < early.blocksHostMs))
        return std::nullopt;
    return early;
}

std::string formatCaptureCheck(const ProbeEnd& end, bool ab, int columns)
{
    if (end.captureAfterEffect) {
        const ProbeEstimate& e = *end.captureAfterEffect;
        std::string text = "The capture's after-effect: the loop as it is ran " + formatNumber("%+.1f%%", e.pct) + " ["
            + formatNumber("%+.1f", e.ciLow) + ", " + formatNumber("%+.1f", e.ciHigh)
            + "] after the profiled capture against before it (" + std::to_string(end.captureBlocksAfter) + " and "
            + std::to_string(end.captureBlocksBefore) + " blocks)";
        if (!end.captureTeardown.empty())
            text += "; " + end.captureTeardown;
        if (end.captureWithinDrift)
            text += "; not flagged: the loop slowed " + formatNumber("%+.1f%%", end.captureDriftPct)
                + " over as many blocks after it with no capture between them (its own drift)";
        if (end.captureFasterAfter)
            text += "; the loop ran faster after it: still speeding up before it, not an after-effect";
        if (end.captureFlagged)
            text += ab ? "; flagged: the capture left the loop changed, so the A/B comes from the rounds before it"
                       : "; flagged: the capture left the loop changed, the blocks after it measure the changed loop";
        return wrapped(text, columns);
    }
    if (end.captureReason.empty())
        return {};
    return wrapped("The capture's after-effect was not measured: " + end.captureReason
            + (end.captureTeardown.empty() ? std::string() : "; " + end.captureTeardown),
        columns);
}

namespace {

std::string intervalText(const ProbeEstimate& e)
{
    return formatNumber("%+.1f%%", e.pct) + " [" + formatNumber("%+.1f", e.ciLow) + ", "
        + formatNumber("%+.1f", e.ciHigh) + "]";
}

std::string counted(int64_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// A wait as the probe says one: 3 significant digits, in ms from 1 ms, else in us.
std::string waitText(double ms) { return ms >= 1 ? formatNumber("%.3g ms", ms) : formatNumber("%.3g us", ms * 1e3); }

// How late the loop saw the deferred line's values, and the reads that waited all the same.
std::string lateText(const ProbeDefer& d)
{
    std::string late = "in its blocks the loop saw that line's values late: " + std::to_string(d.late) + " of "
        + counted(d.calls, "read");
    if (d.lagCalls && d.lagSteps)
        late += ", " + counted(d.lagCalls->median, "read") + " (" + counted(d.lagSteps->median, "step")
            + ") late at the median, " + counted(d.lagCalls->max, "read") + " at most";
    if (d.waited > 0)
        late += "; " + std::to_string(d.waited) + " waited as before (a first read, or copies still in flight"
            + (d.lagLimitCalls > 0 ? " " + std::to_string(d.lagLimitCalls) + " reads on)" : ")");
    if (d.notDeferred > 0)
        late += "; " + std::to_string(d.notDeferred) + " not deferred (over 4096 elements, or more than 4096 a step)";
    if (!d.error.empty())
        late += "; deferring stopped: " + d.error;
    return late;
}

// "2.1 points above the measurement, inside its interval": a predicted change beside the measured one.
std::string againstMeasured(double predictedPct, const ProbeEstimate& measured)
{
    const double diff = predictedPct - measured.pct;
    const bool inside = predictedPct >= measured.ciLow && predictedPct <= measured.ciHigh;
    return formatNumber("%.1f", std::abs(diff)) + " points " + (diff >= 0 ? "above" : "below") + " the measurement"
        + (inside ? ", inside its interval" : ", outside its interval");
}

// The what-if's loop without the deferred line's syncs beside the measured saving, or why there is
// none.
std::string formatDeferWhatIf(const WhatIf& whatIf, const ProbeEstimate& measured, int columns)
{
    if (!whatIf.withoutLine)
        return whatIf.withoutLineWhy.empty()
            ? std::string()
            : wrapped(
                "  the what-if without that line's syncs: not available (" + whatIf.withoutLineWhy + ")", columns);
    const WhatIfLine& line = *whatIf.withoutLine;
    std::string range;
    if (line.changeHighPct > line.changeLowPct)
        range
            = " [" + formatNumber("%+.1f", line.changeLowPct) + ", " + formatNumber("%+.1f", line.changeHighPct) + "]";
    return wrapped("  the what-if above, the captured step without " + line.site + "'s " + counted(line.syncs, "sync")
            + " (" + std::to_string(line.otherSyncs) + " others kept): " + formatNumber("%+.1f%%", line.changePct)
            + range + "; " + againstMeasured(line.changePct, measured),
        columns);
}

} // namespace

std::string formatDeferAnswer(const ProbeFolder& folder, int columns)
{
    if (folder.ab != "defer" || !folder.defer || !folder.item || folder.defer->site.empty())
        return {};
    const ProbeDefer& d = *folder.defer;
    std::string about;
    if (!d.ops.empty()) {
        about = " (`";
        for (std::size_t i = 0; i < d.ops.size(); ++i)
            about += (i ? ", " : "") + d.ops[i];
        about += "`, " + formatNumber("%.3g", d.callsPerStep) + " a step"
            + (d.waitMs && *d.waitMs > 0 ? ", " + waitText(*d.waitMs) + " wait" : std::string()) + ")";
    }
    std::string how = std::to_string(folder.rounds) + " rounds"
        + (folder.roundsBeforeCaptureOnly ? " before the capture, which left the loop changed" : "") + ", paired";
    if (folder.control)
        how += ", A/A " + intervalText(*folder.control);
    if (folder.driftFlagged)
        how += ", drift flagged";
    if (folder.cudaAvailable == false)
        how += "; no device: the Python cost of deferring, not a sync";
    std::string out = wrapped("  deferring " + d.site + about + " " + (folder.item->pct <= 0 ? "saves " : "costs ")
            + intervalText(*folder.item) + " of the step, measured in your loop (" + how + ")",
        columns);
    out += wrapped("  " + lateText(d), columns);
    if (d.roundsWithoutLine > 0)
        out += wrapped("  " + counted(d.roundsWithoutLine, "round")
                + " before --ab defer picked its line left out of the estimate",
            columns);
    return out;
}

std::string formatProbeAnswer(const ProbeFolder& folder, const WhatIf* whatIf, int columns)
{
    const std::string deferred = formatDeferAnswer(folder, columns);
    std::string out;
    if (folder.ab.empty()) {
        out += wrapped("Measured in your loop: no A/B ran (python3 -m synctax_probe --ab item measures what an added "
                       "loss.item() costs, paired, in your own loop)",
            columns);
    } else if (!folder.item) {
        const std::string site = folder.defer && !folder.defer->site.empty() ? ", deferring " + folder.defer->site : "";
        out += wrapped("Measured in your loop (--ab " + folder.ab + site + "): "
                + (folder.defer && !folder.defer->refused.empty() ? "it deferred nothing, so no estimate"
                                                                  : "no estimate yet"),
            columns);
    } else {
        out += wrapped("Measured in your loop (synctax_probe --ab " + folder.ab + ", " + std::to_string(folder.rounds)
                + (folder.roundsBeforeCaptureOnly ? " rounds, those before the capture," : " rounds") + " of "
                + (folder.blockSteps > 0 ? std::to_string(folder.blockSteps) + "-step " : std::string())
                + "blocks in random order, paired, unprofiled; 95% intervals):",
            columns);
        if (!deferred.empty()) {
            // The defer answer says its A/A control in its own sentence.
            out += deferred;
            if (whatIf)
                out += formatDeferWhatIf(*whatIf, *folder.item, columns);
        } else {
            out += padded("  " + folder.ab + " (measured)", 32, false) + padded(intervalText(*folder.item), 24, false)
                + "\n";
            if (whatIf) {
                const auto row = std::find_if(
                    whatIf->rows.begin(), whatIf->rows.end(), [&](const WhatIfRow& r) { return r.style == folder.ab; });
                if (row != whatIf->rows.end()) {
                    out += padded("  " + folder.ab + " (what-if above)", 32, false)
                        + formatNumber("%+.1f%%", row->taxPct) + taxRangeText(*row) + "\n";
                    out += wrapped("  the prediction is " + againstMeasured(row->taxPct, *folder.item), columns);
                }
            }
            if (folder.control)
                out += padded("  A/A control (noise floor)", 32, false) + intervalText(*folder.control) + "\n";
        }
        if (folder.timing)
            out += wrapped("  every step timed (calibration blocks) " + intervalText(*folder.timing)
                    + " against the blocks only counted: what the probe's timing costs this loop, one block in four",
                columns);
        if (folder.windows.size() > 1) {
            std::string overTime = "  over time, per window of rounds:";
            for (const ProbeWindow& w : folder.windows)
                overTime += " " + (w.item ? formatNumber("%+.1f%%", w.item->pct) : std::string("-"));
            out += wrapped(overTime, columns);
        }
        out += wrapped("  drift: the loop as it is ran " + formatNumber("%+.1f%%", folder.driftPct)
                + " from the first half of the rounds to the second"
                + (folder.driftFlagged
                        ? "; flagged: more than the widest interval, the tax moved with the host over the run"
                        : ""),
            columns);
        if (folder.taxDriftFlagged)
            out += wrapped("  the tax moved during the run: " + intervalText(*folder.taxFirstHalf)
                    + " in the first half of the rounds, " + intervalText(*folder.taxSecondHalf)
                    + " in the second; the run's single figure averages them (read it over time above)",
                columns);
    }
    if (folder.end)
        out += formatCaptureCheck(*folder.end, !folder.ab.empty(), columns);
    if (folder.probeUsPerStep) {
        // Its own bookkeeping, as it times it: not what it costs the loop, which only separate plain
        // processes of the same loop show (docs/validation.md).
        std::string own = "The probe's own time after each optimizer step: median "
            + formatNumber("%.1f", *folder.probeUsPerStep) + " us on the loop's thread, its wrappers' time not counted";
        if (folder.writerUsPerStep)
            own += "; its writer thread's CPU: " + formatNumber("%.1f", *folder.writerUsPerStep)
                + " us a step (off the loop's thread, but holding the GIL the loop may want)";
        out += wrapped(
            own + ". What it costs a loop in all is measured against plain processes (docs/validation.md)", columns);
    }
    for (const std::string& note : folder.notes)
        out += wrapped("note: " + note, columns);
    return out;
}

} // namespace synctax
