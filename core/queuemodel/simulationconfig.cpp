#include "core/queuemodel/simulationconfig.h"

#include "core/config/embeddedfiles.h"
#include "core/config/inputsource.h"
#include "core/config/stylecatalog.h"
#include "core/config/yamlchecker.h"
#include "core/queuemodel/simulationbounds.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
#include <set>

namespace synctax {

namespace {

const std::vector<std::string> modelKeys { "d_ms", "g_ms", "h_us", "l_us", "k", "queue_capacity", "jitter", "format_us",
    "redraw_us", "tail_ms" };

// A scenario's model as written: keys left out come from `defaults`, then from QueueModel.
struct PartialModel {
    std::optional<double> dMs, gMs, hUs, lUs, jitter, formatUs, redrawUs, tailMs;
    std::optional<int64_t> k, queueCapacity;
    bool hasD = false, hasG = false; // written, even if wrongly: reported once, not also as missing
};

class SimulationReader : private YamlChecker {
public:
    using YamlChecker::YamlChecker;

    void read(const YAML::Node& root, SimulationConfig& config)
    {
        if (!root.IsMap()) {
            error(root,
                "expected a mapping at the top level (synctax_simulation: 1, scenarios: ..., styles: ...), found "
                    + kindOf(root));
            return;
        }
        if (const auto other = findKey(root, configkeys::version.name); other && !findKey(root, simulationVersionKey)) {
            error(*other,
                "this is an experiment config (" + std::string(configkeys::version.name)
                    + ": 1), not a simulation file: run it with 'synctax-run run' (or check it with 'synctax-run "
                      "validate')");
            return;
        }
        static const std::vector<std::string> keys { simulationVersionKey, "name", "description", "seed",
            "steps_per_block", "blocks", "defaults", "styles", "scenarios" };
        bool sawVersion = false, sawStyles = false;
        std::optional<YAML::Node> scenarios;
        PartialModel defaults;
        uint64_t seed = 1;
        for (const auto& [key, value] : entries(root, keys, "the simulation")) {
            const std::string k = key.Scalar();
            if (k == simulationVersionKey) {
                sawVersion = true;
                integer(value, simulationVersionKey, 1, 1);
            } else if (k == "name") {
                if (auto v = string(value, "name"))
                    config.name = *v;
            } else if (k == "description") {
                if (auto v = string(value, "description"))
                    config.description = *v;
            } else if (k == "seed") {
                if (auto v = integer(value, "seed", 0, std::numeric_limits<int64_t>::max()))
                    seed = uint64_t(*v);
            } else if (k == "steps_per_block") {
                if (auto v = within(value, simulationBounds::stepsPerBlock))
                    config.stepsPerBlock = *v;
            } else if (k == "blocks") {
                if (auto v = within(value, simulationBounds::blocks))
                    config.blocks = *v;
            } else if (k == "defaults") {
                if (value.IsMap()) {
                    for (const auto& [dk, dv] : entries(value, modelKeys, "defaults"))
                        readModelKey(dk.Scalar(), dv, defaults);
                } else {
                    error(value, "defaults: expected a mapping of " + joined(modelKeys) + ", found " + kindOf(value));
                }
            } else if (k == "styles") {
                sawStyles = true;
                readStyles(value, config.styles);
            } else if (k == "scenarios") {
                scenarios = value;
            }
        }
        if (!sawVersion)
            error(root, "missing 'synctax_simulation: 1' (what makes this a simulation file)");
        if (!sawStyles)
            error(root, "missing 'styles' (a list of: " + joined(styleNames()) + ")");
        if (!scenarios)
            error(root, "missing 'scenarios' (a list of mappings with name, d_ms, g_ms, ...)");
        else
            readScenarios(*scenarios, defaults, seed, config);
    }

private:
    std::optional<double> within(const YAML::Node& value, const NumberKey& b)
    {
        return number(value, b.name, b.min, b.max);
    }
    std::optional<int64_t> within(const YAML::Node& value, const IntegerKey& b)
    {
        return integer(value, b.name, b.min, b.max);
    }

    void readModelKey(const std::string& k, const YAML::Node& value, PartialModel& model)
    {
        model.hasD = model.hasD || k == "d_ms";
        model.hasG = model.hasG || k == "g_ms";
        if (k == "d_ms")
            model.dMs = within(value, simulationBounds::dMs);
        else if (k == "g_ms")
            model.gMs = within(value, simulationBounds::gMs);
        else if (k == "h_us")
            model.hUs = within(value, simulationBounds::hUs);
        else if (k == "l_us")
            model.lUs = within(value, simulationBounds::lUs);
        else if (k == "k")
            model.k = within(value, simulationBounds::k);
        else if (k == "queue_capacity")
            model.queueCapacity = within(value, simulationBounds::queueCapacity);
        else if (k == "jitter")
            model.jitter = within(value, simulationBounds::jitter);
        else if (k == "format_us")
            model.formatUs = within(value, simulationBounds::formatUs);
        else if (k == "redraw_us")
            model.redrawUs = within(value, simulationBounds::redrawUs);
        else if (k == "tail_ms")
            model.tailMs = within(value, simulationBounds::tailMs);
    }

    void readScenarios(const YAML::Node& value, const PartialModel& defaults, uint64_t seed, SimulationConfig& config)
    {
        if (!value.IsSequence() || value.size() == 0) {
            error(value, "scenarios: expected a non-empty list of mappings, found " + kindOf(value));
            return;
        }
        std::vector<std::string> keys { "name", "description" };
        keys.insert(keys.end(), modelKeys.begin(), modelKeys.end());
        std::set<std::string> seen;
        for (const auto& item : value) {
            if (!item.IsMap()) {
                error(item, "a scenario: expected a mapping with name, d_ms, g_ms, ..., found " + kindOf(item));
                continue;
            }
            SimulationScenario scenario;
            PartialModel written;
            bool named = false;
            for (const auto& [key, v] : entries(item, keys, "a scenario")) {
                if (key.Scalar() == "name") {
                    if (auto name = string(v, "name")) {
                        named = true;
                        scenario.name = *name;
                        if (!seen.insert(*name).second)
                            error(v, "scenario '" + *name + "' is listed twice");
                    }
                } else if (key.Scalar() == "description") {
                    if (auto d = string(v, "description"))
                        scenario.description = *d;
                } else {
                    readModelKey(key.Scalar(), v, written);
                }
            }
            if (!named)
                error(item, "a scenario needs 'name'");
            const auto pick = [](const auto& own, const auto& fallback, auto builtIn) {
                return own ? *own : fallback ? *fallback : builtIn;
            };
            if (!written.hasD && !defaults.hasD)
                error(item, "scenario '" + scenario.name + "' needs d_ms (here or in defaults)");
            if (!written.hasG && !defaults.hasG)
                error(item, "scenario '" + scenario.name + "' needs g_ms (here or in defaults)");
            QueueModel& m = scenario.model;
            m.dMs = pick(written.dMs, defaults.dMs, m.dMs);
            m.gMs = pick(written.gMs, defaults.gMs, m.gMs);
            m.hUs = pick(written.hUs, defaults.hUs, m.hUs);
            m.lUs = pick(written.lUs, defaults.lUs, m.lUs);
            m.k = pick(written.k, defaults.k, m.k);
            m.queueCapacity = pick(written.queueCapacity, defaults.queueCapacity, m.queueCapacity);
            m.jitter = pick(written.jitter, defaults.jitter, m.jitter);
            m.formatUs = pick(written.formatUs, defaults.formatUs, m.formatUs);
            m.redrawUs = pick(written.redrawUs, defaults.redrawUs, m.redrawUs);
            m.tailMs = pick(written.tailMs, defaults.tailMs, m.tailMs);
            m.seed = seed;
            config.scenarios.push_back(scenario);
        }
    }
};

const char* const simulationFile = "a simulation file (YAML)";

} // namespace

SimulationLoadResult loadSimulationText(const std::string& text, const std::string& sourceName)
{
    SimulationLoadResult result;
    const std::optional<YAML::Node> root = parseYaml(text, sourceName, result.errors);
    if (!root)
        return result;
    SimulationConfig config;
    SimulationReader(sourceName, result.errors).read(*root, config);
    if (result.errors.empty())
        result.config = config;
    return result;
}

SimulationLoadResult loadSimulationFile(const std::string& path)
{
    return loadFromFile<SimulationLoadResult>(path, simulationFile, loadSimulationText);
}

std::vector<std::string> builtinSimulationNames() { return embeddedNames(embeddedSimulations()); }

std::optional<std::string> builtinSimulationText(const std::string& name)
{
    return embeddedText(embeddedSimulations(), name);
}

SimulationLoadResult loadSimulationOrBuiltin(const std::string& nameOrPath)
{
    static const BuiltinInputs simulations { simulationFile, "built-in simulation",
        "simulation:", builtinSimulationNames, builtinSimulationText };
    return loadFromFileOrBuiltin<SimulationLoadResult>(nameOrPath, simulations, loadSimulationText);
}

} // namespace synctax
