#include "runcommand.h"

#include "progressprinter.h"

#include "core/configloader.h"
#include "core/devices.h"
#include "core/experimentrunner.h"
#include "core/journal.h"
#include "core/presets.h"
#include "core/resultsdiff.h"
#include "core/resultsjson.h"
#include "core/resultsloader.h"
#include "core/resulttable.h"
#include "core/stepcsvwriter.h"
#include "core/stepring.h"
#include "core/traceexport.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

namespace synctax {

namespace {

std::atomic<bool> g_stopRequested { false };

extern "C" void requestStop(int) { g_stopRequested.store(true); }

std::string timestamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
    return text;
}

std::optional<ExperimentConfig> loadOrReport(const std::string& nameOrPath)
{
    ConfigLoadResult loaded = loadConfigOrPreset(nameOrPath);
    if (!loaded.config) {
        std::cerr << formatErrors(loaded.errors);
        std::cerr << loaded.errors.size() << " error(s); nothing was run\n";
    }
    return loaded.config;
}

void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write '" + path.string() + "'");
}

} // namespace

int runCommand(const RunOptions& options)
{
    std::string source = options.config;
    if (source.empty()) {
        source = defaultPresetName(cudaAvailable());
        std::cerr << "synctax-run: no config given; running the '" << source << "' preset ("
                  << (cudaAvailable() ? "CUDA is available" : "no CUDA device: CPU only") << ")\n";
    }
    auto config = loadOrReport(source);
    if (!config)
        return 2;
    if (options.quick)
        applyQuick(*config);
    if (options.seed)
        config->seed = *options.seed;
    if (!options.device.empty())
        config->device = options.device;
    // The options may contradict the config (--device cpu with cuda_graph): check the result as a whole.
    if (const ConfigLoadResult checked = loadConfigText(toJson(*config).dump(1), source); !checked.config) {
        for (const auto& e : checked.errors)
            std::cerr << source << " with the command-line options: " << e.message << "\n";
        std::cerr << "nothing was run\n";
        return 2;
    }

    const std::filesystem::path outDir = options.outDir.empty()
        ? std::filesystem::path("results") / (config->name + "-" + timestamp())
        : std::filesystem::path(options.outDir);
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec) {
        std::cerr << outDir.string() << ": cannot create the output directory: " << ec.message() << "\n";
        return 2;
    }

    StepRing ring;
    std::unique_ptr<ExperimentRunner> runner;
    try {
        runner = std::make_unique<ExperimentRunner>(*config, &ring);
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 2;
    }
    std::cerr << "synctax-run: " << config->name << " on " << runner->device() << ", " << runner->cells().size()
              << " cells; results in " << outDir.string() << "\n";

    std::unique_ptr<StepCsvWriter> csvWriter;
    std::unique_ptr<Journal> journalWriter;
    try {
        csvWriter = std::make_unique<StepCsvWriter>((outDir / "steps.csv").string(), runner->cells());
        journalWriter = std::make_unique<Journal>((outDir / "journal.jsonl").string(), *config);
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 2;
    }
    StepCsvWriter& csv = *csvWriter;
    Journal& journal = *journalWriter;
    runner->onBlockMeasured = [&](const CellPlan& cell, int round, int64_t steps, double msPerStep) {
        journal.block(cell.model, cell.mode, cell.style, round, steps, msPerStep);
    };
    std::atomic<bool> runFinished { false };
    // Kept for the trace only: a million steps take 50 MB here.
    std::vector<StepRecord> traceRecords;
    std::thread drainer([&] {
        std::vector<StepRecord> batch;
        for (;;) {
            const bool last = runFinished.load();
            batch.clear();
            ring.drain(batch);
            csv.write(batch);
            if (!options.tracePath.empty())
                traceRecords.insert(traceRecords.end(), batch.begin(), batch.end());
            if (last)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        csv.flush();
    });

    ProgressPrinter progress(stderr);
    runner->onProgress = [&](const RunProgress& p) { progress.update(p); };
    runner->onNote = [](const std::string& note) { std::cerr << "note: " << note << "\n"; };
    g_stopRequested.store(false);
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    ExperimentResult result = runner->run(g_stopRequested);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    progress.finish();
    journal.end(result.stopped);
    runFinished.store(true);
    drainer.join();

    try {
        writeJsonFileAtomically((outDir / "results.json").string(), toJson(result));
        writeText(outDir / "summary.csv", summaryCsv(result));
        if (!options.tracePath.empty())
            writeChromeTrace(options.tracePath, traceRecords, runner->cells(), &result);
    } catch (const std::exception& e) {
        std::cerr << "synctax-run: " << e.what() << "\n";
        return 1;
    }

    std::cout << "\n"
              << config->name << " on " << result.environment.device << " (" << result.environment.deviceName
              << "), torch " << result.environment.torchVersion << ", " << int(result.durationS + 0.5) << " s\n";
    std::cout << formatTable(result) << std::flush;
    std::cerr << "wrote " << (outDir / "results.json").string() << ", steps.csv (" << csv.rows()
              << " steps), summary.csv, journal.jsonl\n";
    if (!options.tracePath.empty())
        std::cerr << "wrote " << options.tracePath << " (open it in ui.perfetto.dev)\n";
    if (result.droppedRecords > 0)
        std::cerr << "note: " << result.droppedRecords << " step records were dropped (the writer fell behind)\n";
    if (result.stopped) {
        std::cerr << "synctax-run: interrupted; the blocks measured so far are saved\n";
        return 130;
    }
    for (const auto& cell : result.cells) {
        if (!cell.ok)
            return 1;
    }
    return 0;
}

int validateCommand(const std::string& config)
{
    auto loaded = loadOrReport(config);
    if (!loaded)
        return 2;
    std::cout << config << ": ok (" << loaded->models.size() << " models x " << loaded->styles.size() << " styles x "
              << loaded->modes.size() << " modes)\n";
    return 0;
}

int presetsCommand()
{
    for (const auto& name : presetNames()) {
        std::string description;
        auto loaded = loadConfigText(*presetText(name), "preset:" + name);
        if (loaded.config)
            description = loaded.config->description;
        std::cout << name << (description.empty() ? "" : "  -  " + description) << "\n";
    }
    return 0;
}

int printConfigCommand(const std::string& preset)
{
    auto text = presetText(preset);
    if (!text) {
        std::cerr << preset << ": no such preset; run 'synctax-run presets' for the list\n";
        return 2;
    }
    std::cout << *text;
    return 0;
}

int diffCommand(const std::string& a, const std::string& b)
{
    const ResultsLoadResult ra = loadResultsFile(a);
    const ResultsLoadResult rb = loadResultsFile(b);
    if (!ra.result || !rb.result) {
        std::cerr << formatErrors(ra.errors) << formatErrors(rb.errors);
        return 2;
    }
    std::cout << "A: " << a << "\nB: " << b << "\n" << formatDiff(diffResults(*ra.result, *rb.result));
    return 0;
}

} // namespace synctax
