#include "tracecommand.h"

#include "core/trace/tracewatch.h"
#include "progressprinter.h"

#include "core/probe/probefolder.h"
#include "core/probe/traceopen.h"
#include "core/results/outputpaths.h"
#include "core/trace/tracesummary.h"
#include "core/trace/tracetable.h"
#include "core/trace/tracewhatif.h"
#include "core/trace/tracewhatiftable.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace synctax {

namespace {

std::atomic<bool> g_traceStop { false };

extern "C" void requestTraceStop(int) { g_traceStop.store(true); }

// Progress on stderr for files over this size; smaller ones read in well under a second.
constexpr std::uint64_t progressFromBytes = 16u << 20;

ImportedLoopOptions loopOptions(const TraceOptions& options)
{
    ImportedLoopOptions o;
    o.stepMs = options.stepMs;
    o.phasesMs = options.phasesMs;
    o.phasesSpreadMs = options.phasesSpreadMs;
    if (options.syncUs)
        o.syncUs = *options.syncUs;
    return o;
}

// openTrace with a progress line on stderr for a large file.
std::optional<OpenedTrace> openFile(const std::string& path, const TraceOptions& traceOptions, std::string* error,
    std::shared_ptr<const ProbeFolder>* probe)
{
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path, ec);
    ProgressPrinter printer(stderr);
    const auto started = std::chrono::steady_clock::now();
    OpenTraceOptions options;
    options.cancel = &g_traceStop;
    options.loop = loopOptions(traceOptions);
    if (!ec && bytes >= progressFromBytes) {
        options.reading = [&](const TraceReadProgress& p) {
            RunProgress run;
            run.blocksDone = std::int64_t(p.fileBytesRead >> 20);
            run.blocksTotal = std::max<std::int64_t>(1, std::int64_t(p.fileBytes >> 20));
            run.cell = "reading " + std::filesystem::path(path).filename().string() + " ("
                + std::to_string(p.eventsRead) + " events)";
            run.elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            if (p.fileBytesRead > 0 && p.fileBytes >= p.fileBytesRead)
                run.remainingS = run.elapsedS * double(p.fileBytes - p.fileBytesRead) / double(p.fileBytesRead);
            printer.update(run);
        };
    }
    OpenTraceResult opened = openTrace(path, options);
    if (options.reading)
        printer.finish();
    *probe = opened.probe;
    if (opened.cancelled) {
        *error = path + ": reading stopped";
        return std::nullopt;
    }
    if (!opened.opened) {
        *error = opened.error;
        return std::nullopt;
    }
    return std::move(opened.opened);
}

// The summaries' paths, checked before any trace is read so that a folder that cannot be written
// stops the command at once (as `run --out` does).
bool outputsWritable(const std::vector<std::string>& paths)
{
    for (const auto& p : paths) {
        const std::string problem = outputPathProblem(p);
        if (!problem.empty()) {
            std::cerr << "synctax-run: " << problem << "\n";
            return false;
        }
    }
    return true;
}

bool makeOutDir(const std::string& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::cerr << "synctax-run: cannot create '" << dir << "': " << ec.message() << "\n";
        return false;
    }
    return true;
}

bool writeSummary(const std::string& path, const TraceReport& report, const ImportedLoop& loop, const WhatIf& whatIf)
{
    try {
        writeTraceSummary(path, report, loop, whatIf);
        std::cerr << "wrote " << path << "\n";
        return true;
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return false;
    }
}

// Reads, analyses and prints one file with its what-if, and writes its summary to `summaryPath` when set.
bool traceOneFile(const std::string& path, const std::string& summaryPath, const TraceOptions& options,
    std::vector<TraceReport>* reports)
{
    // A probe's run folder (openTrace calibrates its capture to its phases) also says the A/B it
    // measured, beside the what-if; a folder with no capture says that alone.
    std::shared_ptr<const ProbeFolder> probe;
    std::string error;
    const auto opened = openFile(path, options, &error, &probe);
    if (!opened && probe && probe->tracePath.empty()) {
        std::cout << path << "\n" << formatProbeAnswer(*probe, nullptr) << std::flush;
        return true;
    }
    if (!opened) {
        std::cerr << error << "\n";
        return false;
    }
    const TraceReport& report = opened->report;
    const ImportedLoop& loop = opened->loop;
    const WhatIf what = whatIf(loop, double(options.hostWorkUs), options.hostWorkAt == "before-sync");
    std::cout << formatTraceReport(report) << "\n" << formatWhatIfTable(loop, what) << std::flush;
    if (probe)
        std::cout << "\n" << formatProbeAnswer(*probe, &what) << std::flush;
    if (reports)
        reports->push_back(report);
    return summaryPath.empty() || writeSummary(summaryPath, report, loop, what);
}

int traceFiles(const TraceOptions& options)
{
    std::vector<std::string> summaries;
    if (!options.outDir.empty()) {
        // Named before the folder is made, so that inputs whose summaries cannot be told apart
        // leave nothing behind.
        const TraceSummaryNames names = options.files.size() == 1
            ? TraceSummaryNames { { "trace-summary.json" }, {}, {} }
            : traceSummaryFileNames(options.files);
        if (!names.problem.empty()) {
            std::cerr << "synctax-run trace: --out " << options.outDir << ": " << names.problem << "\n";
            return 2;
        }
        if (!names.renamed.empty())
            std::cerr << names.renamed << "\n";
        if (!makeOutDir(options.outDir))
            return 2;
        const std::filesystem::path dir(options.outDir);
        for (const auto& name : names.names)
            summaries.push_back((dir / name).string());
        if (!outputsWritable(summaries))
            return 2;
    }
    std::vector<TraceReport> reports;
    bool ok = true;
    for (size_t i = 0; i < options.files.size() && !g_traceStop.load(); ++i) {
        if (i > 0)
            std::cout << "\n";
        ok = traceOneFile(options.files[i], summaries.empty() ? std::string() : summaries[i], options, &reports) && ok;
    }
    if (reports.size() > 1) {
        std::cout << "\n" << reports.size() << " traces side by side:\n";
        for (const auto& r : reports)
            std::cout << formatRankLine(r);
    }
    return ok && !g_traceStop.load() ? 0 : 2;
}

int watchFolder(const TraceOptions& options)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(options.watchDir, ec)) {
        std::cerr << "synctax-run trace: --watch " << options.watchDir << ": not a folder\n";
        return 2;
    }
    if (!options.outDir.empty() && !makeOutDir(options.outDir))
        return 2;
    if (!options.outDir.empty()
        && !outputsWritable({ (std::filesystem::path(options.outDir) / "trace-summary-probe.json").string() }))
        return 2;
    std::cerr << "watching " << options.watchDir << " for *.pt.trace.json[.gz]"
              << (options.once ? "" : "; Ctrl-C stops") << "\n";
    bool ok = true;
    bool first = true;
    TraceWatch watch(options.watchDir);
    const auto started = std::chrono::steady_clock::now();
    while (!g_traceStop.load()) {
        for (const std::string& path : watch.poll()) {
            if (!first)
                std::cout << "\n";
            first = false;
            const std::string summary = options.outDir.empty()
                ? std::string()
                : (std::filesystem::path(options.outDir) / traceSummaryFileName(path)).string();
            const bool read = traceOneFile(path, summary, options, nullptr);
            watch.finished(path);
            ok = read && ok;
        }
        if (options.once && watch.idle())
            break;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (options.timeoutS > 0 && elapsed >= options.timeoutS)
            break;
        watch.sleep(g_traceStop);
    }
    return ok ? 0 : 2;
}

} // namespace

int traceCommand(const TraceOptions& options)
{
    if (options.files.empty() == options.watchDir.empty()) {
        std::cerr << "synctax-run trace: give trace files or --watch DIR (one of the two)\n";
        return 2;
    }
    if ((options.once || options.timeoutS > 0) && options.watchDir.empty()) {
        std::cerr << "synctax-run trace: --once and --timeout go with --watch\n";
        return 2;
    }
    g_traceStop.store(false);
    std::signal(SIGINT, requestTraceStop);
    std::signal(SIGTERM, requestTraceStop);
    const int code = options.watchDir.empty() ? traceFiles(options) : watchFolder(options);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return code;
}

} // namespace synctax
