#include "inputcommands.h"

#include "terminal.h"

#include "core/config/checkedreader.h"
#include "core/config/configloader.h"
#include "core/config/presets.h"
#include "core/config/sweepgrid.h"
#include "core/results/resultsdiff.h"
#include "core/results/resultsloader.h"
#include "core/results/resulttable.h"
#include "core/results/sweeptable.h"
#include "core/text/format.h"

#include <algorithm>
#include <iostream>

namespace synctax {

std::optional<ExperimentConfig> loadOrReport(const std::string& nameOrPath)
{
    ConfigLoadResult loaded = loadConfigOrPreset(nameOrPath);
    if (!loaded.config) {
        std::cerr << formatErrors(loaded.errors);
        std::cerr << loaded.errors.size() << " error(s); nothing was run\n";
    }
    return loaded.config;
}

int validateCommand(const ValidateOptions& options,
    const std::function<std::vector<ConfigError>(const ExperimentConfig&)>& checkModels, bool* needsEngine)
{
    const std::string& config = options.config;
    auto loaded = loadOrReport(config);
    if (!loaded)
        return 2;
    const bool ownModels = std::any_of(
        loaded->models.begin(), loaded->models.end(), [](const ModelSpec& m) { return m.torchscript.has_value(); });
    if (ownModels && !checkModels && needsEngine) {
        *needsEngine = true;
        return 0;
    }
    if (ownModels && checkModels) {
        if (const auto errors = checkModels(*loaded); !errors.empty()) {
            std::cerr << formatErrors(errors);
            std::cerr << errors.size() << " error(s) in the torchscript models\n";
            return 2;
        }
    }
    std::cout << config << ": ok (" << loaded->models.size() << " models x " << loaded->styles.size() << " styles x "
              << loaded->modes.size() << " modes";
    if (sweptKeys(*loaded).any())
        std::cout << "; swept: " << sweepGrid(*loaded).size() * loaded->modes.size() << " groups";
    std::cout << ")\n";
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

int printConfigCommand(const PrintConfigOptions& options)
{
    const std::string& preset = options.name;
    auto text = presetText(preset);
    if (!text) {
        std::cerr << preset << ": no such preset; run 'synctax-run presets' for the list\n";
        return 2;
    }
    std::cout << *text;
    return 0;
}

int diffCommand(const DiffOptions& options)
{
    const std::string& a = options.a;
    const std::string& b = options.b;
    const ResultsLoadResult ra = loadResultsFile(a);
    const ResultsLoadResult rb = loadResultsFile(b);
    if (!ra.result || !rb.result) {
        std::cerr << formatErrors(ra.errors) << formatErrors(rb.errors);
        return 2;
    }
    std::cout << "A: " << a << "\nB: " << b << "\n" << formatDiff(diffResults(*ra.result, *rb.result));
    return 0;
}

int showCommand(const ShowOptions& options)
{
    const ResultsLoadResult loaded = loadResultsFile(options.results);
    if (!loaded.result) {
        std::cerr << formatErrors(loaded.errors);
        return 2;
    }
    const ExperimentResult& r = *loaded.result;
    const Environment& env = r.environment;
    std::cout << r.config.name << " on " << env.device << (env.deviceName.empty() ? "" : " (" + env.deviceName + ")")
              << (env.torchVersion.empty() ? "" : ", torch " + env.torchVersion) << ", " << formatDuration(r.durationS)
              << (r.stopped ? ", stopped before its end" : "") << "\n";
    std::cout << formatTable(r, terminalColumns(stdout)) << formatSweepTables(r) << std::flush;
    for (const std::string& note : r.notes)
        std::cerr << "note: " << printable(note) << "\n";
    return 0;
}

} // namespace synctax
