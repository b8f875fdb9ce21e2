#include "core/config/configloader.h"

#include "core/config/presets.h"
#include "core/config/stylecatalog.h"
#include "core/config/yamlchecker.h"
#include "core/config/modelcatalog.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <limits>
#include <set>

namespace synctax {

namespace {

// Walks one YAML document and fills an ExperimentConfig, collecting every error on the way.
class ConfigReader : private YamlChecker {
public:
    using YamlChecker::YamlChecker;

    void read(const YAML::Node& root, ExperimentConfig& config)
    {
        if (!root.IsMap()) {
            error(root,
                "expected a mapping at the top level (synctax: 1, models: ..., styles: ...), found " + kindOf(root));
            return;
        }
        static const std::vector<std::string> keys { "synctax", "name", "description", "device", "seed",
            "steps_per_block", "blocks", "min_blocks", "target_ci_pp", "time_budget_s", "processes", "gpu_events",
            "observer_control", "warmup", "host_work_us", "optimizer", "learning_rate", "sink", "models", "styles",
            "modes" };
        bool sawVersion = false, sawModels = false, sawStyles = false;
        for (const auto& [key, value] : entries(root, keys, "the config")) {
            const std::string k = key.Scalar();
            if (k == "synctax") {
                sawVersion = true;
                if (auto v = integer(value, "synctax", 1, 1))
                    config.version = int(*v);
            } else if (k == "name") {
                if (auto v = string(value, "name"))
                    config.name = *v;
            } else if (k == "description") {
                if (auto v = string(value, "description"))
                    config.description = *v;
            } else if (k == "device") {
                readDevice(value, config);
            } else if (k == "seed") {
                if (auto v = integer(value, "seed", 0, std::numeric_limits<int64_t>::max()))
                    config.seed = uint64_t(*v);
            } else if (k == "steps_per_block") {
                if (auto v = integer(value, "steps_per_block", 1, 100000))
                    config.stepsPerBlock = *v;
            } else if (k == "blocks") {
                if (auto v = integer(value, "blocks", 2, 100000))
                    config.blocks = *v;
            } else if (k == "min_blocks") {
                if (auto v = integer(value, "min_blocks", 2, 100000))
                    config.minBlocks = *v;
            } else if (k == "target_ci_pp") {
                if (auto v = number(value, "target_ci_pp", 0.0, 100.0))
                    config.targetCiPp = *v;
            } else if (k == "time_budget_s") {
                if (auto v = number(value, "time_budget_s", 0.1, 86400.0))
                    config.timeBudgetS = *v;
            } else if (k == "processes") {
                if (auto v = integer(value, "processes", 1, 64))
                    config.processes = int(*v);
            } else if (k == "gpu_events") {
                if (auto v = boolean(value, "gpu_events"))
                    config.gpuEvents = *v;
            } else if (k == "observer_control") {
                if (auto v = boolean(value, "observer_control"))
                    config.observerControl = *v;
            } else if (k == "warmup") {
                readWarmup(value, config);
            } else if (k == "host_work_us") {
                if (auto v = integer(value, "host_work_us", 0, 10'000'000))
                    config.hostWorkUs = *v;
            } else if (k == "optimizer") {
                if (auto v = string(value, "optimizer")) {
                    if (*v == "sgd")
                        config.optimizer = OptimizerKind::Sgd;
                    else if (*v == "adam")
                        config.optimizer = OptimizerKind::Adam;
                    else
                        error(value, "optimizer: unknown optimizer '" + *v + "'; expected sgd or adam");
                }
            } else if (k == "learning_rate") {
                if (auto v = number(value, "learning_rate", 1e-9, 10.0))
                    config.learningRate = *v;
            } else if (k == "sink") {
                readSink(value, config.sink);
            } else if (k == "models") {
                sawModels = true;
                readModels(value, config);
            } else if (k == "styles") {
                sawStyles = true;
                readStyles(value, config.styles);
            } else if (k == "modes") {
                readModes(value, config);
            }
        }
        if (!sawVersion)
            error(root, "missing 'synctax: 1' (the config format version)");
        if (!sawModels)
            error(root, "missing 'models' (a list of: " + joined(modelNames()) + ")");
        if (!sawStyles)
            error(root, "missing 'styles' (a list of: " + joined(styleNames()) + ")");
        if (config.warmupMinSteps > config.warmupMaxSteps)
            error(root, "warmup: min_steps is larger than max_steps");
        if (m_graphMode && config.device == "cpu")
            error(*m_graphMode, "mode cuda_graph needs a CUDA device, and device is cpu");
    }

private:
    void readDevice(const YAML::Node& value, ExperimentConfig& config)
    {
        auto v = string(value, "device");
        if (!v)
            return;
        const std::string& d = *v;
        bool ok = d == "auto" || d == "cpu" || d == "cuda";
        if (!ok && d.rfind("cuda:", 0) == 0 && d.size() > 5)
            ok = d.find_first_not_of("0123456789", 5) == std::string::npos;
        if (!ok) {
            error(value, "device: unknown device '" + d + "'; expected auto, cpu, cuda or cuda:N");
            return;
        }
        config.device = d;
    }

    void readWarmup(const YAML::Node& value, ExperimentConfig& config)
    {
        if (!value.IsMap()) {
            error(value, "warmup: expected a mapping with min_steps and max_steps, found " + kindOf(value));
            return;
        }
        for (const auto& [key, v] : entries(value, { "min_steps", "max_steps" }, "warmup")) {
            if (key.Scalar() == "min_steps") {
                if (auto n = integer(v, "warmup.min_steps", 0, 100000))
                    config.warmupMinSteps = *n;
            } else if (auto n = integer(v, "warmup.max_steps", 0, 100000)) {
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
        auto v = string(value, "sink");
        if (!v)
            return;
        if (*v == "null")
            sink.kind = SinkSpec::Kind::Null;
        else if (*v == "stdout")
            sink.kind = SinkSpec::Kind::Stdout;
        else if (*v == "stderr")
            sink.kind = SinkSpec::Kind::Stderr;
        else if (v->rfind("file:", 0) == 0 && v->size() > 5) {
            sink.kind = SinkSpec::Kind::File;
            sink.path = v->substr(5);
        } else {
            error(value, "sink: unknown sink '" + *v + "'; expected null, stdout, stderr or file:PATH");
        }
    }

    void readModels(const YAML::Node& value, ExperimentConfig& config)
    {
        if (!value.IsSequence() || value.size() == 0) {
            error(value, "models: expected a non-empty list of model names or mappings, found " + kindOf(value));
            return;
        }
        std::set<std::string> seen;
        for (const auto& item : value) {
            ModelSpec spec;
            // YAML::Node's operator= writes through to the node it refers to: rebind with emplace.
            std::optional<YAML::Node> nameNode;
            if (!item.IsMap()) {
                nameNode.emplace(item);
            } else {
                static const std::vector<std::string> keys { "name", "batch", "width", "input_size", "classes",
                    "steps_per_block", "blocks", "host_work_us", "time_budget_s" };
                bool hasName = false;
                for (const auto& [key, v] : entries(item, keys, "a model")) {
                    const std::string k = key.Scalar();
                    if (k == "name") {
                        hasName = true;
                        nameNode.emplace(v);
                    } else if (k == "batch") {
                        spec.batch = integer(v, "batch", 1, 65536).value_or(0);
                    } else if (k == "width") {
                        spec.width = integer(v, "width", 1, 8192).value_or(0);
                    } else if (k == "input_size") {
                        spec.inputSize = integer(v, "input_size", 1, 4096).value_or(0);
                    } else if (k == "classes") {
                        spec.classes = integer(v, "classes", 2, 1'000'000).value_or(0);
                    } else if (k == "steps_per_block") {
                        spec.stepsPerBlock = integer(v, "steps_per_block", 1, 100000).value_or(0);
                    } else if (k == "blocks") {
                        spec.blocks = integer(v, "blocks", 2, 100000).value_or(0);
                    } else if (k == "host_work_us") {
                        spec.hostWorkUs = integer(v, "host_work_us", 0, 10'000'000).value_or(-1);
                    } else if (k == "time_budget_s") {
                        spec.timeBudgetS = number(v, "time_budget_s", 0.1, 86400.0).value_or(0);
                    }
                }
                if (!hasName) {
                    error(item, "a model mapping needs 'name' (one of: " + joined(modelNames()) + ")");
                    continue;
                }
            }
            auto name = string(*nameNode, "model");
            if (!name)
                continue;
            auto defaults = findModel(*name);
            if (!defaults) {
                error(*nameNode, "unknown model '" + *name + "'; expected one of: " + joined(modelNames()));
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

    void readModes(const YAML::Node& value, ExperimentConfig& config)
    {
        if (!value.IsSequence() || value.size() == 0) {
            error(value, "modes: expected a non-empty list of eager and/or cuda_graph, found " + kindOf(value));
            return;
        }
        config.modes.clear();
        for (const auto& item : value) {
            auto name = string(item, "mode");
            if (!name)
                continue;
            auto mode = modeFromString(*name);
            if (!mode) {
                error(item, "unknown mode '" + *name + "'; expected eager or cuda_graph");
                continue;
            }
            if (std::find(config.modes.begin(), config.modes.end(), *mode) != config.modes.end()) {
                error(item, "mode '" + *name + "' is listed twice");
                continue;
            }
            config.modes.push_back(*mode);
            if (*mode == Mode::CudaGraph)
                m_graphMode = item.Mark();
        }
    }

    std::optional<YAML::Mark> m_graphMode; // where cuda_graph was asked for
};

} // namespace

ConfigLoadResult loadConfigText(const std::string& text, const std::string& sourceName)
{
    ConfigLoadResult result;
    const std::optional<YAML::Node> root = parseYaml(text, sourceName, result.errors);
    if (!root)
        return result;
    ExperimentConfig config;
    ConfigReader reader(sourceName, result.errors);
    reader.read(*root, config);
    if (result.errors.empty()) {
        const bool graphs = std::find(config.modes.begin(), config.modes.end(), Mode::CudaGraph) != config.modes.end();
        if (config.observerControl && !config.gpuEvents) {
            result.errors.push_back({ sourceName, 0, 0,
                "observer_control compares the baseline with and without per-step events; it needs gpu_events: true" });
        }
        if (graphs && config.optimizer == OptimizerKind::Adam) {
            result.errors.push_back({ sourceName, 0, 0,
                "mode cuda_graph needs optimizer sgd: Adam keeps its step count on the host, and a captured "
                "graph would replay the first step's bias correction forever" });
        }
    }
    if (result.errors.empty())
        result.config = config;
    return result;
}

ConfigLoadResult loadConfigFile(const std::string& path)
{
    ConfigLoadResult result;
    if (const auto text = readInputFile(path, result.errors))
        return loadConfigText(*text, path);
    return result;
}

ConfigLoadResult loadConfigOrPreset(const std::string& nameOrPath)
{
    std::error_code ec;
    if (std::filesystem::exists(nameOrPath, ec))
        return loadConfigFile(nameOrPath);
    if (auto text = presetText(nameOrPath))
        return loadConfigText(*text, "preset:" + nameOrPath);
    ConfigLoadResult result;
    result.errors.push_back(
        { nameOrPath, 0, 0, "no such file, and no preset of that name; presets: " + joined(presetNames()) });
    return result;
}

} // namespace synctax
