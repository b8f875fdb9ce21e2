#include "core/config/configloader.h"

#include "core/config/configschema.h"
#include "core/config/inputsource.h"
#include "core/config/modelcatalog.h"
#include "core/config/presets.h"
#include "core/config/stylecatalog.h"
#include "core/config/torchscriptentry.h"
#include "core/config/yamlchecker.h"

#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

namespace synctax {

namespace {

// Why a file cannot be opened to append to (made where missing), in the system's words; empty when it can.
std::string appendProblem(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        return ec.message();
    if (fs::exists(status)) {
        if (fs::is_directory(status))
            return "it is a folder";
        return access(path.c_str(), W_OK) == 0 ? std::string() : std::string(std::strerror(errno));
    }
    const fs::path folder = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
    const fs::file_status folderStatus = fs::status(folder, ec);
    if (!fs::exists(folderStatus))
        return "the folder " + folder.string() + " does not exist";
    if (!fs::is_directory(folderStatus))
        return folder.string() + " is not a folder";
    return access(folder.c_str(), W_OK | X_OK) == 0 ? std::string() : std::string(std::strerror(errno));
}

// Walks one YAML document and fills an ExperimentConfig, collecting every error on the way.
class ConfigReader : private YamlChecker {
public:
    // `asWritten`: the text is what a person wrote (a file, a preset), not a config written back
    // from a run (its results, the runner's own copy after the command-line options), which holds
    // every key, defaults too.
    ConfigReader(std::string source, std::vector<ConfigError>& errors, ModelFiles files, bool asWritten)
        : YamlChecker(std::move(source), errors)
        , m_files(files)
        , m_asWritten(asWritten)
    {
    }

    void read(const YAML::Node& root, ExperimentConfig& config)
    {
        if (!root.IsMap()) {
            error(root,
                "expected a mapping at the top level (synctax: 1, models: ..., styles: ...), found " + kindOf(root));
            return;
        }
        if (const auto other = findKey(root, simulationVersionKey); other && !findKey(root, configkeys::version.name)) {
            error(*other,
                "this is a simulation file (" + std::string(simulationVersionKey)
                    + ": 1), not an experiment config: simulate it with 'synctax-run simulate'");
            return;
        }
        using namespace configkeys;
        bool sawVersion = false, sawModels = false, sawStyles = false;
        for (const auto& [key, value] : entries(root, topLevelKeyNames(), "the config")) {
            const std::string k = key.Scalar();
            if (k == version.name) {
                sawVersion = true;
                if (auto v = integer(value, version))
                    config.version = int(*v);
            } else if (k == name.name) {
                if (auto v = string(value, name)) {
                    if (isConfigName(*v))
                        config.name = *v;
                    else
                        error(place(value, name.name),
                            "'" + printable(*v)
                                + "' cannot name the results folder (results/NAME-TIME): " + nameRule());
                }
            } else if (k == description.name) {
                if (auto v = string(value, description))
                    config.description = *v;
            } else if (k == device.name) {
                readDevice(value, config);
            } else if (k == seed.name) {
                if (auto v = unsignedInteger(value, seed))
                    config.seed = *v;
            } else if (k == stepsPerBlock.name) {
                if (auto v = integer(value, stepsPerBlock))
                    config.stepsPerBlock = *v;
            } else if (k == blocks.name) {
                if (auto v = integer(value, blocks))
                    config.blocks = *v;
            } else if (k == minBlocks.name) {
                if (auto v = integer(value, minBlocks)) {
                    config.minBlocks = *v;
                    m_minBlocks = value.Mark();
                }
            } else if (k == targetCiPp.name) {
                if (auto v = number(value, targetCiPp))
                    config.targetCiPp = *v;
            } else if (k == timeBudgetS.name) {
                if (auto v = number(value, timeBudgetS))
                    config.timeBudgetS = *v;
            } else if (k == processes.name) {
                if (auto v = integer(value, processes))
                    config.processes = int(*v);
            } else if (k == gpuEvents.name) {
                if (auto v = boolean(value, gpuEvents))
                    config.gpuEvents = *v;
            } else if (k == observerControl.name) {
                m_observerControl = value.Mark();
                if (auto v = boolean(value, observerControl))
                    config.observerControl = *v;
            } else if (k == warmup.name) {
                readWarmup(value, config);
            } else if (k == hostWorkUs.name) {
                if (auto v = integer(value, hostWorkUs))
                    config.hostWorkUs = *v;
            } else if (k == optimizer.name) {
                m_optimizer = value.Mark();
                if (auto v = string(value, optimizer.name)) {
                    if (auto kind = choice(place(value, optimizer.name), *v, optimizer))
                        config.optimizer = *kind;
                }
            } else if (k == learningRate.name) {
                if (auto v = number(value, learningRate))
                    config.learningRate = *v;
            } else if (k == sink.name) {
                readSink(value, config.sink);
            } else if (k == models.name) {
                sawModels = true;
                readModels(value, config);
            } else if (k == styles.name) {
                sawStyles = true;
                readStyles(value, config.styles);
            } else if (k == modes.name) {
                readModes(value, config);
            } else if (k == sweep.name) {
                readSweep(value, config.sweep);
            } else if (k == distributed.name) {
                m_distributed = value.Mark();
                readDistributed(value, config);
            }
        }
        if (!sawVersion)
            error(root, "missing 'synctax: 1' (the config format version)");
        if (!sawModels)
            error(root, "missing 'models' (a list of: " + joined(modelNames()) + ")");
        if (!sawStyles)
            error(root, "missing 'styles' (a list of: " + joined(styleNames()) + ")");
        if (config.warmupMinSteps > config.warmupMaxSteps)
            error(m_warmupStep.value_or(root.Mark()), "warmup: min_steps is larger than max_steps");
        if (m_graphMode && config.device == "cpu")
            error(*m_graphMode, "mode cuda_graph needs a CUDA device, and device is cpu");
    }

    // Contradictions between keys each valid alone, checked once every key is: each at the key that
    // asks for what the others rule out.
    void checkCombinations(const ExperimentConfig& config)
    {
        const bool graphs = std::find(config.modes.begin(), config.modes.end(), Mode::CudaGraph) != config.modes.end();
        if (config.observerControl && !config.gpuEvents) {
            error(m_observerControl.value_or(YAML::Mark::null_mark()),
                "observer_control compares the baseline with and without per-step events; it needs gpu_events: true");
        }
        if (config.distributed)
            checkDistributed(config, graphs);
        // The runner would stop at `blocks` before min_blocks let the interval target be checked.
        if (m_asWritten && m_minBlocks && config.minBlocks > config.blocks) {
            error(*m_minBlocks,
                std::string(configkeys::minBlocks.name) + ": " + std::to_string(config.minBlocks)
                    + " is more than blocks (" + std::to_string(config.blocks)
                    + "): the rounds would end before the interval target is checked; expected at most "
                    + std::to_string(config.blocks));
        }
        if (graphs && config.optimizer == OptimizerKind::Adam) {
            error(m_optimizer.value_or(YAML::Mark::null_mark()),
                "mode cuda_graph needs optimizer sgd: Adam keeps its step count on the host, and a captured "
                "graph would replay the first step's bias correction forever");
        }
    }

private:
    void checkDistributed(const ExperimentConfig& config, bool graphs)
    {
        const YAML::Mark at = m_distributed.value_or(YAML::Mark::null_mark());
        const std::string what = configkeys::distributed.name;
        if (config.processes > 1)
            error(at, what + ": the ranks run side by side, in one run; processes must be 1");
        if (graphs)
            error(at, what + ": the data-parallel step runs eagerly; modes must not list cuda_graph");
        if (config.distributed->backend == CollectiveBackend::Nccl && config.device == "cpu")
            error(at, what + ": backend nccl needs a CUDA device per rank, and device is cpu; use backend gloo");
    }

    void readDistributed(const YAML::Node& value, ExperimentConfig& config)
    {
        const std::string what = configkeys::distributed.name;
        if (!value.IsMap()) {
            error(value,
                what + ": expected a mapping with " + joined(distributedKeyNames()) + ", found " + kindOf(value));
            return;
        }
        DistributedSpec spec;
        const std::string prefix = what + ".";
        for (const auto& [key, v] : entries(value, distributedKeyNames(), what)) {
            const std::string k = key.Scalar();
            if (k == distributedkeys::backend.name) {
                if (auto text = string(v, prefix + k)) {
                    if (auto b = choice(place(v, prefix + k), *text, distributedkeys::backend))
                        spec.backend = *b;
                }
            } else if (k == distributedkeys::ranks.name) {
                if (auto n = integer(v, distributedkeys::ranks, prefix))
                    spec.ranks = int(*n);
            } else if (k == distributedkeys::syncOn.name) {
                if (auto text = string(v, prefix + k)) {
                    if (auto s = choice(place(v, prefix + k), *text, distributedkeys::syncOn))
                        spec.syncOn = *s;
                }
            } else if (auto t = number(v, prefix + k, distributedkeys::timeoutS.min, distributedkeys::timeoutS.max)) {
                spec.timeoutS = *t;
            }
        }
        config.distributed = spec;
    }

    void readDevice(const YAML::Node& value, ExperimentConfig& config)
    {
        auto v = string(value, configkeys::device);
        if (!v)
            return;
        if (!isDeviceName(*v)) {
            std::vector<std::string> forms = configkeys::deviceNames;
            forms.push_back(configkeys::deviceIndexed);
            unknown(place(value, configkeys::device.name), configkeys::device.name, *v, forms);
            return;
        }
        config.device = *v;
    }

    void readWarmup(const YAML::Node& value, ExperimentConfig& config)
    {
        if (!value.IsMap()) {
            error(value, "warmup: expected a mapping with min_steps and max_steps, found " + kindOf(value));
            return;
        }
        const std::string prefix = std::string(configkeys::warmup.name) + ".";
        for (const auto& [key, v] : entries(value, warmupKeyNames(), configkeys::warmup.name)) {
            if (!m_warmupStep || key.Scalar() == warmupkeys::minSteps.name)
                m_warmupStep = v.Mark(); // min_steps where written, else max_steps
            if (key.Scalar() == warmupkeys::minSteps.name) {
                if (auto n = integer(v, warmupkeys::minSteps, prefix))
                    config.warmupMinSteps = *n;
            } else if (auto n = integer(v, warmupkeys::maxSteps, prefix)) {
                config.warmupMaxSteps = *n;
            }
        }
    }

    void readSink(const YAML::Node& value, SinkSpec& sink)
    {
        if (value.IsNull()) {
            sink.kind = SinkSpec::Kind::Null;
            return;
        }
        auto v = string(value, configkeys::sink.name);
        if (!v)
            return;
        const std::string file = configkeys::sinkFilePrefix;
        if (auto kind = configkeys::sink.find(*v)) {
            sink.kind = *kind;
        } else if (v->rfind(file, 0) == 0 && v->size() > file.size()) {
            sink.kind = SinkSpec::Kind::File;
            sink.path = v->substr(file.size());
            // The run opens it only once its output folder is made: a path it cannot open is said here.
            if (m_files == ModelFiles::Checked) {
                if (const std::string why = appendProblem(sink.path); !why.empty())
                    error(value,
                        std::string(configkeys::sink.name) + ": cannot append to '" + printable(sink.path)
                            + "': " + why);
            }
        } else {
            std::vector<std::string> forms = configkeys::sink.names();
            forms.push_back(file + "PATH");
            unknown(place(value, configkeys::sink.name), configkeys::sink.name, *v, forms);
        }
    }

    void readModels(const YAML::Node& value, ExperimentConfig& config)
    {
        // A model mapping's integer keys and the field each sets; 0 leaves it to the catalog or the config.
        static const std::vector<std::pair<const IntegerKey*, int64_t ModelSpec::*>> modelSizes {
            { &modelkeys::batch, &ModelSpec::batch }, { &modelkeys::width, &ModelSpec::width },
            { &modelkeys::inputSize, &ModelSpec::inputSize }, { &modelkeys::classes, &ModelSpec::classes },
            { &configkeys::stepsPerBlock, &ModelSpec::stepsPerBlock }, { &configkeys::blocks, &ModelSpec::blocks }
        };
        if (!value.IsSequence() || value.size() == 0) {
            error(value, "models: expected a non-empty list of model names or mappings, found " + kindOf(value));
            return;
        }
        std::set<std::string> seen;
        for (const auto& item : value) {
            ModelSpec spec;
            // YAML::Node's operator= writes through to the node it refers to: rebind with emplace.
            std::optional<YAML::Node> nameNode;
            TorchScriptNodes script;
            if (!item.IsMap()) {
                nameNode.emplace(item);
            } else {
                for (const auto& [key, v] : entries(item, modelKeyNames(), "a model")) {
                    const std::string k = key.Scalar();
                    if (k == modelkeys::name.name) {
                        nameNode.emplace(v);
                    } else if (k == configkeys::hostWorkUs.name) {
                        spec.hostWorkUs = integer(v, configkeys::hostWorkUs).value_or(-1);
                    } else if (k == configkeys::timeBudgetS.name) {
                        spec.timeBudgetS = number(v, configkeys::timeBudgetS).value_or(0);
                    } else if (k == configkeys::sweep.name) {
                        readSweep(v, spec.sweep);
                    } else if (k == torchscriptkeys::path.name) {
                        script.path.emplace(v);
                    } else if (k == torchscriptkeys::input.name) {
                        script.input.emplace(v);
                    } else if (k == torchscriptkeys::inputs.name) {
                        script.inputs.emplace(v);
                    } else if (k == torchscriptkeys::target.name) {
                        script.target.emplace(v);
                    } else {
                        for (const auto& [sizeKey, field] : modelSizes) {
                            if (k == sizeKey->name)
                                spec.*field = integer(v, *sizeKey).value_or(0);
                        }
                        if (k == modelkeys::width.name || k == modelkeys::inputSize.name
                            || k == modelkeys::classes.name)
                            script.builtInSize.emplace(key);
                    }
                }
            }
            if (script.path) {
                if (!readTorchScriptModel(item, nameNode, script, spec))
                    continue;
                if (!seen.insert(spec.name).second) {
                    error(nameNode ? *nameNode : *script.path,
                        "model '" + spec.name + "' is listed twice (give each torchscript model a name of its own)");
                    continue;
                }
                config.models.push_back(spec);
                continue;
            }
            for (const auto& node : { script.input, script.inputs, script.target }) {
                if (node)
                    error(*node, "input, inputs and target are for a model given as torchscript: PATH");
            }
            if (!nameNode) {
                error(item,
                    "a model mapping needs 'name' (one of: " + joined(modelNames())
                        + ") or 'torchscript' (a module saved by torch.jit.save)");
                continue;
            }
            auto name = string(*nameNode, "model");
            if (!name)
                continue;
            auto defaults = findModel(*name);
            if (!defaults) {
                error(*nameNode,
                    "unknown model '" + *name + "'; expected one of: " + joined(modelNames())
                        + " (or your own: torchscript: PATH)");
                continue;
            }
            if (!seen.insert(*name).second) {
                error(*nameNode, "model '" + *name + "' is listed twice");
                continue;
            }
            spec.name = *name;
            if (spec.batch <= 0)
                spec.batch = defaults->batch;
            if (spec.width <= 0)
                spec.width = defaults->width;
            if (spec.inputSize <= 0)
                spec.inputSize = defaults->inputSize;
            if (spec.classes <= 0)
                spec.classes = defaults->classes;
            if (spec.name != "tiny_mlp" && spec.inputSize < 32)
                error(item, "input_size: " + spec.name + " needs images of at least 32x32");
            config.models.push_back(spec);
        }
    }

    // A `torchscript: PATH` entry: its name (given, else the file's), the file found and its input
    // and target read. The batch defaults to 32, the sizes are the module's own.
    bool readTorchScriptModel(const YAML::Node& item, const std::optional<YAML::Node>& nameNode,
        const TorchScriptNodes& script, ModelSpec& spec)
    {
        const size_t errorsBefore = errorCount();
        auto read = readTorchScriptEntry(*this, item, script, configBaseDir(source()), m_files == ModelFiles::Checked);
        std::optional<std::string> name;
        if (nameNode) {
            name = string(*nameNode, "model");
            if (name && !isConfigName(*name))
                error(*nameNode, "'" + printable(*name) + "': " + nameRule());
            else if (name && findModel(*name))
                error(*nameNode, "'" + *name + "' is a built-in model's name; give this torchscript model another");
        } else if (read) {
            name = torchScriptDisplayName(read->path);
            if (findModel(*name) || !isConfigName(*name)) {
                error(*script.path,
                    "the file's name '" + printable(*name)
                        + "' cannot name this model (a built-in's name, or not a name): give it name: ...");
            }
        }
        if (!read || !name || errorCount() != errorsBefore)
            return false;
        spec.name = *name;
        spec.torchscript = *read;
        if (spec.batch <= 0)
            spec.batch = torchscriptkeys::defaultBatch;
        spec.classes = read->target.kind == TargetSpec::Kind::Classes ? read->target.classes : 0;
        return true;
    }

    void readSweep(const YAML::Node& value, std::optional<SweepSpec>& sweep)
    {
        const std::string what = configkeys::sweep.name;
        if (!value.IsMap() || value.size() == 0) {
            error(value,
                what + ": expected a mapping with " + sweepKeyNames()[0] + " and/or " + sweepKeyNames()[1] + ", found "
                    + (value.IsMap() ? "an empty mapping" : kindOf(value)));
            return;
        }
        SweepSpec spec;
        for (const auto& [key, v] : entries(value, sweepKeyNames(), what)) {
            const bool hostWork = key.Scalar() == sweepkeys::hostWorkUs.name;
            readSweepValues(
                v, hostWork ? sweepkeys::hostWorkUs : sweepkeys::batch, hostWork ? spec.hostWorkUs : spec.batch);
        }
        sweep = spec;
    }

    // One list of a sweep: distinct integers within the key's bounds, in the order to run them.
    void readSweepValues(const YAML::Node& value, const IntegerKey& key, std::vector<int64_t>& values)
    {
        const std::string prefix = std::string(configkeys::sweep.name) + ".";
        if (!value.IsSequence() || value.size() == 0) {
            error(value,
                prefix + key.name + ": expected a non-empty list of integers, found "
                    + (value.IsSequence() ? "an empty list" : kindOf(value)));
            return;
        }
        for (const auto& item : value) {
            const auto v = integer(item, key, prefix);
            if (!v)
                continue;
            if (std::find(values.begin(), values.end(), *v) != values.end()) {
                error(item, prefix + key.name + ": " + std::to_string(*v) + " is listed twice");
                continue;
            }
            values.push_back(*v);
        }
    }

    void readModes(const YAML::Node& value, ExperimentConfig& config)
    {
        if (!value.IsSequence() || value.size() == 0) {
            error(value, "modes: expected a non-empty list of eager and/or cuda_graph, found " + kindOf(value));
            return;
        }
        config.modes.clear();
        for (const auto& item : value) {
            auto name = string(item, modeChoice.name);
            if (!name)
                continue;
            auto mode = choice(place(item), *name, modeChoice);
            if (!mode)
                continue;
            if (std::find(config.modes.begin(), config.modes.end(), *mode) != config.modes.end()) {
                error(item, "mode '" + *name + "' is listed twice");
                continue;
            }
            config.modes.push_back(*mode);
            if (*mode == Mode::CudaGraph)
                m_graphMode = item.Mark();
        }
    }

    ModelFiles m_files;
    bool m_asWritten;
    // Where keys that may contradict others were written, to point at them.
    std::optional<YAML::Mark> m_graphMode; // cuda_graph in modes
    std::optional<YAML::Mark> m_optimizer;
    std::optional<YAML::Mark> m_observerControl;
    std::optional<YAML::Mark> m_warmupStep;
    std::optional<YAML::Mark> m_minBlocks;
    std::optional<YAML::Mark> m_distributed;
};

const char* const configFile = "a config file (YAML)";

ConfigLoadResult fromText(const std::string& text, const std::string& sourceName);

ConfigLoadResult load(const std::string& text, const std::string& sourceName, ModelFiles files, bool asWritten)
{
    ConfigLoadResult result;
    const std::optional<YAML::Node> root = parseYaml(text, sourceName, result.errors);
    if (!root)
        return result;
    ExperimentConfig config;
    ConfigReader reader(sourceName, result.errors, files, asWritten);
    reader.read(*root, config);
    if (result.errors.empty())
        reader.checkCombinations(config);
    if (result.errors.empty())
        result.config = config;
    return result;
}

} // namespace

ConfigLoadResult loadConfigText(const std::string& text, const std::string& sourceName, ModelFiles files)
{
    return load(text, sourceName, files, false);
}

namespace {

ConfigLoadResult fromText(const std::string& text, const std::string& sourceName)
{
    return load(text, sourceName, ModelFiles::Checked, true);
}

} // namespace

ConfigLoadResult loadConfigFile(const std::string& path)
{
    return loadFromFile<ConfigLoadResult>(path, configFile, fromText);
}

ConfigLoadResult loadConfigOrPreset(const std::string& nameOrPath)
{
    static const BuiltinInputs presets { configFile, "preset", "preset:", presetNames, presetText };
    return loadFromFileOrBuiltin<ConfigLoadResult>(nameOrPath, presets, fromText);
}

} // namespace synctax
