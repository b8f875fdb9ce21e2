#include "simulatecommand.h"

#include "progressprinter.h"

#include "core/analysis/replayfit.h"
#include "core/config/presets.h"
#include "core/config/stylecatalog.h"
#include "core/config/sweepgrid.h"
#include "core/queuemodel/prediction.h"
#include "core/queuemodel/regime.h"
#include "core/queuemodel/simulationconfig.h"
#include "core/queuemodel/simulator.h"
#include "core/queuemodel/stylereplay.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"
#include "core/results/runoutputs.h"
#include "core/results/stepcsvwriter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace synctax {

namespace {

// A sweep point replays k x steps_per_block launches for each of two styles; beyond this many a
// point takes minutes, and the sweep's 55 of them hours.
constexpr double sweepMostLaunchesPerPoint = 1e8;
// A sweep of this many launches in all takes long enough to want a progress line.
constexpr double sweepProgressFromLaunches = 1e8;

// printf-style text; the runner never calls setlocale, so numbers use the C locale's '.'.
template <typename... Args> std::string format(const char* pattern, Args... args)
{
    char text[256];
    std::snprintf(text, sizeof text, pattern, args...);
    return text;
}

std::string describe(const QueueModel& m)
{
    return format("D %.3f ms, G %.3f ms, H %.0f us, L %.1f us, K %lld, Q %lld", m.dMs, m.gMs, m.hUs, m.lUs,
               static_cast<long long>(m.k), static_cast<long long>(m.queueCapacity))
        + (m.tailMs > 0 ? format(", GPU tail %.3f ms", m.tailMs) : std::string());
}

// What the fit to the step from an idle GPU did, when it was measured.
std::string idleStartText(const ReplayFit& fit, const CapturedReplay& replay)
{
    if (replay.drainMs <= 0)
        return {};
    if (!fitsIdleStart(replay.step))
        return format(", no GPU start fitted to the step from an idle GPU's %.3f ms (its host sets the pace by itself)",
            replay.drainMs);
    return format(", GPU start on an idle queue +%.1f us to the step from an idle GPU's %.3f ms", fit.idleStartUs,
        replay.drainMs);
}

// How the host was moved to the baseline.
std::string hostMoveText(const ReplayFit& fit) { return format("; host x %.2f", fit.hostScale); }

// What the host was brought to: the baseline blocks' own host time, or their step time.
std::string hostFitText(const ReplayFit& fit, double baselineMs)
{
    if (fit.spreadScales.empty())
        return format(" to the baseline's %.3f ms", baselineMs);
    return format(" to the baseline blocks' host time (median %.3f ms, deciles 1-9 %.3f-%.3f ms, replayed at each)",
        fit.blockDispatchMs, fit.blockDecilesMs.front(), fit.blockDecilesMs.back());
}

// The host's spread from step to step within a block, where the baseline's blocks gave one.
std::string stepSpreadText(const ReplayFit& fit)
{
    if (fit.stepSpread.empty())
        return {};
    const auto [fastest, slowest] = std::minmax_element(fit.stepSpread.begin(), fit.stepSpread.end());
    return format(", each step x %.2f-%.2f from step to step (the blocks' first two steps)", *fastest, *slowest);
}

std::string styleLabel(const StyleSpec& s) { return s.n > 0 ? s.name + " (n=" + std::to_string(s.n) + ")" : s.name; }

// How far the predictions of a run's cells are from what was measured, over every cell.
struct Agreement {
    double largest = -1; // |predicted - measured|, pp
    std::string largestCell;
    int cellCount = 0;
    int withinTwo = 0;
    int outside = 0; // predictions outside the measured 95% interval
    double farthest = 0;
    std::string farthestCell;

    void add(const std::string& cell, double predictedPct, const Interval& measured)
    {
        const double diff = predictedPct - measured.estimate;
        if (std::abs(diff) > largest) {
            largest = std::abs(diff);
            largestCell = cell;
        }
        ++cellCount;
        withinTwo += std::abs(diff) <= 2.0 ? 1 : 0;
        const double beyond = std::max({ 0.0, predictedPct - measured.high, measured.low - predictedPct });
        if (beyond > 0) {
            ++outside;
            if (beyond > farthest) {
                farthest = beyond;
                farthestCell = cell;
            }
        }
    }
};

// A group's cells predicted again, the line that says from what printed: its captured step refitted
// to the measured baseline where the run kept one, else its D, G, L, K and H.
std::vector<Prediction> predictGroup(const GroupResult& group, const GroupCells& g, const std::string& name)
{
    const double baselineLagMs = g.baseline && g.baseline->queue ? g.baseline->queue->medianLagMs : 0;
    if (!group.replay) {
        std::vector<Prediction> predictions = predictOverheads(group.regime, g.styles, g.stepsPerBlock, baselineLagMs);
        std::cout << "\n"
                  << name << ": " << describe(queueModelFor(group.regime, baselineLagMs)) << " -> "
                  << group.regime.label << (group.regime.queueLimited ? " (D queue-limited)" : "") << "\n";
        return predictions;
    }
    // The run's own predictions again: the captured step, refitted to the measured baseline.
    const BaselineFit f = fitCapturedReplay(*group.replay, g.baseline, g.stepsPerBlock, group.regime.hUs);
    const ReplayFit& fit = f.fit;
    const CapturedReplay& replay = f.capture;
    std::vector<Prediction> predictions
        = replayPredictions(fit, replay.costs, g.styles, g.stepsPerBlock, group.regime.hUs);
    std::cout << "\n"
              << name << ": replay of " << fit.step.ops.size() << " launches, D " << format("%.3f", fit.regime.dMs)
              << " ms, G " << format("%.3f", fit.regime.gMs) << " ms, H " << format("%.0f", group.regime.hUs)
              << " us, L " << format("%.1f", replay.costs.syncUs) << " us; " << replay.calibration.how
              << afterSyncText(replay.costs) << hostMoveText(fit) << hostFitText(fit, f.baselineMs)
              << stepSpreadText(fit) << ", tail +" << format("%.3f", fit.tailMs) << " ms to its lag of "
              << format("%.3f", f.baselineLagMs) << " ms" << idleStartText(fit, replay) << " -> " << fit.regime.label
              << "\n";
    return predictions;
}

// A measured run, predicted again from each group's D, G, L, K and H: how far the model is off.
int compareWithMeasured(const std::string& path)
{
    const ResultsLoadResult loaded = loadResultsFile(path);
    if (!loaded.result) {
        std::cerr << formatErrors(loaded.errors);
        return 2;
    }
    const ExperimentResult& run = *loaded.result;
    std::cout << "predicted vs measured overhead, " << run.config.name << " on " << run.environment.device << " ("
              << run.environment.deviceName << ")\n";
    Agreement agreement;
    for (const auto& group : run.groups) {
        const std::string name = group.model + "/" + group.mode + sweepPointSuffix(sweptKeys(run.config), group);
        if (!group.regime.available) {
            std::cout << "\n" << name << ": no regime measured (" << group.regime.reason << "); nothing to predict\n";
            continue;
        }
        const GroupCells g = groupCellsOf(run, group);
        const std::vector<Prediction> predictions = predictGroup(group, g, name);
        std::cout << format("  %-30s %26s %10s %8s\n", "style", "measured [95% CI]", "predicted", "diff pp");
        for (size_t i = 0; i < g.cells.size(); ++i) {
            const CellResult& cell = *g.cells[i];
            const double diff = predictions[i].overheadPct - cell.overheadPct->estimate;
            std::cout << format("  %-30s %26s %+9.1f%% %+8.1f\n", cell.style.c_str(),
                formatOverhead(*cell.overheadPct).c_str(), predictions[i].overheadPct, diff);
            agreement.add(name + "/" + cell.style, predictions[i].overheadPct, *cell.overheadPct);
        }
    }
    const Agreement& a = agreement;
    if (a.largest < 0)
        return 0;
    std::cout << format("\nlargest |predicted - measured|: %.1f pp (", a.largest) << a.largestCell << ")\n";
    std::cout << format(
        "within 2 pp: %d of %d cells; outside the measured 95%% interval: %d", a.withinTwo, a.cellCount, a.outside);
    if (a.outside > 0)
        std::cout << format(", the farthest %.1f pp beyond it (", a.farthest) << a.farthestCell << ")";
    std::cout << "\n";
    return 0;
}

// A run's results rather than a simulation: its results file (.json, .json.gz) or journal, or its
// folder (a killed run's, rebuilt from its blocks).
bool isRunResults(const std::filesystem::path& given)
{
    std::error_code ec;
    const bool runFolder = std::filesystem::is_directory(given, ec)
        && (std::filesystem::exists(given / resultsFileName, ec)
            || std::filesystem::exists(given / journalFileName, ec));
    return given.extension() == ".json" || (given.extension() == ".gz" && given.stem().extension() == ".json")
        || given.extension() == ".jsonl" || runFolder;
}

// --out's steps.csv and simulation.csv (its header written) opened; false, said on stderr, when one
// cannot be.
bool openSimulationOutputs(const std::string& outDir, const std::vector<CellPlan>& cells,
    std::unique_ptr<StepCsvWriter>* steps, std::FILE** summary)
{
    const std::filesystem::path dir(outDir);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    try {
        if (ec)
            throw std::runtime_error("cannot create '" + dir.string() + "': " + ec.message());
        *steps = std::make_unique<StepCsvWriter>((dir / "steps.csv").string(), cells);
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return false;
    }
    *summary = std::fopen((dir / "simulation.csv").string().c_str(), "w");
    if (!*summary) {
        std::cerr << "synctax-run: cannot write " << (dir / "simulation.csv").string() << "\n";
        return false;
    }
    std::fputs("scenario,regime,d_ms,g_ms,h_us,l_us,k,queue_capacity,jitter,style,n,ms_per_step,overhead_pct,"
               "syncs_per_step,max_queue_launches\n",
        *summary);
    return true;
}

// One scenario's styles simulated and printed; their steps into `steps` and a row each into
// `summary` where given. Its cells are numbered from `firstCell`.
void simulateScenario(const SimulationConfig& config, const SimulationScenario& scenario, uint32_t firstCell,
    StepCsvWriter* steps, std::FILE* summary)
{
    const QueueModel& m = scenario.model;
    const std::string regime = classifyRegime(m.dMs, m.gMs, m.hUs);
    std::vector<StepRecord> records;
    const auto simulated
        = simulateStyles(m, config.styles, config.stepsPerBlock, config.blocks, steps ? &records : nullptr, firstCell);
    if (steps)
        steps->write(records);

    std::cout << "\n" << scenario.name << ": " << describe(m) << " -> " << regime << "\n";
    if (!scenario.description.empty())
        std::cout << "  " << scenario.description << "\n";
    std::cout << format("  %-34s %10s %10s %11s %10s\n", "style", "ms/step", "overhead", "syncs/step", "max queue");
    for (const auto& s : simulated) {
        const bool baseline = s.style.name == baselineStyle();
        std::cout << format("  %-34s %10.3f %10s %11.2f %10lld\n", styleLabel(s.style).c_str(), s.msPerStep,
            baseline ? "baseline" : format("%+.1f%%", s.overheadPct).c_str(), s.syncsPerStep,
            static_cast<long long>(s.maxQueueLaunches));
        if (summary) {
            std::fputs((scenario.name + "," + regime + ","
                           + format("%.6g,%.6g,%.6g,%.6g,%lld,%lld,%.6g,", m.dMs, m.gMs, m.hUs, m.lUs,
                               static_cast<long long>(m.k), static_cast<long long>(m.queueCapacity), m.jitter)
                           + s.style.name + "," + std::to_string(s.style.n) + ","
                           + format("%.6f,%.4f,%.4f,%lld\n", s.msPerStep, s.overheadPct, s.syncsPerStep,
                               static_cast<long long>(s.maxQueueLaunches)))
                           .c_str(),
                summary);
        }
    }
}

// One point of the sweep simulated and written as a CSV row.
void sweepPoint(const SweepOptions& options, double hMs, double ratio, std::FILE* out)
{
    const std::vector<StyleSpec> styles { { baselineStyle(), 0 }, { "item", 0 } };
    QueueModel m;
    m.dMs = options.dMs;
    m.hUs = hMs * 1e3;
    m.gMs = ratio * (options.dMs + hMs);
    m.lUs = options.lUs;
    m.k = options.k;
    m.queueCapacity = options.queueCapacity;
    const auto s = simulateStyles(m, styles, options.stepsPerBlock, 1);
    std::fprintf(out, "%.6g,%.6g,%.6g,%.6g,%.6g,%lld,%lld,%lld,%.6f,%.6f,%.6f,%.4f,%s\n", hMs, m.dMs, m.gMs, ratio,
        m.lUs, static_cast<long long>(m.k), static_cast<long long>(m.queueCapacity),
        static_cast<long long>(options.stepsPerBlock), s[0].msPerStep, s[1].msPerStep, s[1].msPerStep - s[0].msPerStep,
        s[1].overheadPct, classifyRegime(m.dMs, m.gMs, m.hUs).c_str());
}

} // namespace

int simulateCommand(const SimulateOptions& options)
{
    if (isRunResults(options.config))
        return compareWithMeasured(options.config);
    const SimulationLoadResult loaded = loadSimulationOrBuiltin(options.config);
    if (!loaded.config) {
        std::cerr << formatErrors(loaded.errors) << loaded.errors.size() << " error(s); nothing was simulated\n";
        return 2;
    }
    const SimulationConfig& config = *loaded.config;

    std::vector<CellPlan> cells;
    for (const auto& scenario : config.scenarios) {
        for (const auto& style : config.styles)
            cells.push_back(cellPlan(uint32_t(cells.size()), { { scenario.name, "simulated" }, style.name }));
    }
    std::unique_ptr<StepCsvWriter> steps;
    std::FILE* summary = nullptr;
    if (!options.outDir.empty() && !openSimulationOutputs(options.outDir, cells, &steps, &summary))
        return 2;

    std::cout << config.name << " (simulated: " << config.blocks << " blocks of " << config.stepsPerBlock
              << " steps per style; no GPU used)\n";
    uint32_t firstCell = 0;
    for (const auto& scenario : config.scenarios) {
        simulateScenario(config, scenario, firstCell, steps.get(), summary);
        firstCell += uint32_t(config.styles.size());
    }
    std::cout << "\noverhead = simulated time of all blocks / the baseline's, same GPU times (paired); "
                 "max queue = launches queued and not complete\n";
    if (summary) {
        const bool ok = std::fclose(summary) == 0;
        steps->flush();
        std::cerr << "wrote " << options.outDir << "/steps.csv (" << steps->rows() << " steps), simulation.csv\n";
        if (!ok) {
            std::cerr << "synctax-run: writing simulation.csv failed\n";
            return 2;
        }
    }
    return 0;
}

bool printConfigFindsSimulation(const std::string& name)
{
    return builtinSimulationText(name).has_value() && !presetText(name).has_value();
}

int printSimulationCommand(const std::string& name)
{
    const auto text = builtinSimulationText(name);
    if (!text) {
        std::cerr << name << ": no such built-in simulation\n";
        return 2;
    }
    std::cout << *text;
    return 0;
}

int sweepCommand(const SweepOptions& options)
{
    // The map of the middle regime: G/(D+H) from 0.1 to 10, five points a decade, at several H.
    const std::vector<double> hostWorkMs { 0, 0.5, 1, 2, 5 };
    constexpr int ratios = 11;
    const double launchesPerPoint = double(options.k) * double(options.stepsPerBlock);
    if (launchesPerPoint > sweepMostLaunchesPerPoint) {
        std::cerr << "synctax-run sweep: --k " << options.k << " x --steps-per-block " << options.stepsPerBlock << " = "
                  << format("%g", launchesPerPoint) << " launches per point; expected at most "
                  << format("%g", sweepMostLaunchesPerPoint) << " (each of the " << hostWorkMs.size() * ratios
                  << " points simulates them for none and for item): lower either\n";
        return 2;
    }
    std::FILE* out = stdout;
    if (!options.outPath.empty()) {
        out = std::fopen(options.outPath.c_str(), "w");
        if (!out) {
            std::cerr << "synctax-run: cannot write " << options.outPath << "\n";
            return 2;
        }
    }
    std::fputs("h_ms,d_ms,g_ms,g_over_d_plus_h,l_us,k,queue_capacity,steps_per_block,none_ms_per_step,"
               "item_ms_per_step,item_tax_ms_per_step,item_tax_pct,regime\n",
        out);
    const auto points = std::int64_t(hostWorkMs.size()) * ratios;
    const bool showProgress = 2 * launchesPerPoint * double(points) >= sweepProgressFromLaunches;
    ProgressPrinter printer(stderr);
    const auto started = std::chrono::steady_clock::now();
    RunProgress progress;
    progress.blocksTotal = points;
    for (double hMs : hostWorkMs) {
        for (int i = 0; i < ratios; ++i) {
            const double ratio = std::pow(10.0, -1.0 + 0.2 * i);
            sweepPoint(options, hMs, ratio, out);
            if (showProgress) {
                ++progress.blocksDone;
                progress.cell = format("h %g ms, G/(D+H) %.3g", hMs, ratio);
                progress.elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                progress.remainingS
                    = progress.elapsedS * double(points - progress.blocksDone) / double(progress.blocksDone);
                printer.update(progress);
            }
        }
    }
    if (showProgress)
        printer.finish();
    if (out != stdout && std::fclose(out) != 0) {
        std::cerr << "synctax-run: writing " << options.outPath << " failed\n";
        return 2;
    }
    if (out != stdout)
        std::cerr << "wrote " << options.outPath << " (" << points << " points)\n";
    return 0;
}

} // namespace synctax
