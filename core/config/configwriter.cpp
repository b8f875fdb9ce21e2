#include "core/config/configwriter.h"

#include <yaml-cpp/yaml.h>

namespace synctax {

std::string toYaml(const ExperimentConfig& c)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "synctax" << YAML::Value << c.version;
    out << YAML::Key << "name" << YAML::Value << c.name;
    if (!c.description.empty())
        out << YAML::Key << "description" << YAML::Value << c.description;
    out << YAML::Key << "device" << YAML::Value << c.device;
    out << YAML::Key << "seed" << YAML::Value << c.seed;
    out << YAML::Key << "steps_per_block" << YAML::Value << c.stepsPerBlock;
    out << YAML::Key << "blocks" << YAML::Value << c.blocks;
    out << YAML::Key << "min_blocks" << YAML::Value << c.minBlocks;
    out << YAML::Key << "target_ci_pp" << YAML::Value << c.targetCiPp;
    out << YAML::Key << "time_budget_s" << YAML::Value << c.timeBudgetS;
    out << YAML::Key << "processes" << YAML::Value << c.processes;
    out << YAML::Key << "warmup" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "min_steps" << YAML::Value << c.warmupMinSteps;
    out << YAML::Key << "max_steps" << YAML::Value << c.warmupMaxSteps;
    out << YAML::EndMap;
    out << YAML::Key << "host_work_us" << YAML::Value << c.hostWorkUs;
    out << YAML::Key << "optimizer" << YAML::Value << toString(c.optimizer);
    out << YAML::Key << "learning_rate" << YAML::Value << c.learningRate;
    out << YAML::Key << "gpu_events" << YAML::Value << c.gpuEvents;
    out << YAML::Key << "observer_control" << YAML::Value << c.observerControl;
    out << YAML::Key << "sink" << YAML::Value << toString(c.sink);

    out << YAML::Key << "models" << YAML::Value << YAML::BeginSeq;
    for (const ModelSpec& m : c.models) {
        out << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value << m.name;
        out << YAML::Key << "batch" << YAML::Value << m.batch;
        out << YAML::Key << "width" << YAML::Value << m.width;
        out << YAML::Key << "input_size" << YAML::Value << m.inputSize;
        out << YAML::Key << "classes" << YAML::Value << m.classes;
        if (m.stepsPerBlock > 0)
            out << YAML::Key << "steps_per_block" << YAML::Value << m.stepsPerBlock;
        if (m.blocks > 0)
            out << YAML::Key << "blocks" << YAML::Value << m.blocks;
        if (m.hostWorkUs >= 0)
            out << YAML::Key << "host_work_us" << YAML::Value << m.hostWorkUs;
        if (m.timeBudgetS > 0)
            out << YAML::Key << "time_budget_s" << YAML::Value << m.timeBudgetS;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;

    out << YAML::Key << "styles" << YAML::Value << YAML::BeginSeq;
    for (const StyleSpec& s : c.styles) {
        if (s.n > 0)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << s.name << YAML::Key << "n"
                << YAML::Value << s.n << YAML::EndMap;
        else
            out << s.name;
    }
    out << YAML::EndSeq;

    out << YAML::Key << "modes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (Mode m : c.modes)
        out << toString(m);
    out << YAML::EndSeq;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace synctax
