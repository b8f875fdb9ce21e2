#include "core/config/configwriter.h"

#include "core/config/configschema.h"

#include <yaml-cpp/yaml.h>

namespace synctax {

namespace {

void writeSweep(YAML::Emitter& out, const std::optional<SweepSpec>& sweep)
{
    if (!sweep)
        return;
    out << YAML::Key << configkeys::sweep.name << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (!sweep->hostWorkUs.empty())
        out << YAML::Key << sweepkeys::hostWorkUs.name << YAML::Value << YAML::Flow << sweep->hostWorkUs;
    if (!sweep->batch.empty())
        out << YAML::Key << sweepkeys::batch.name << YAML::Value << YAML::Flow << sweep->batch;
    out << YAML::EndMap;
}

void writeInput(YAML::Emitter& out, const InputSpec& input)
{
    using namespace torchscriptkeys;
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << dimension.name << YAML::Value << YAML::Flow << input.shape;
    out << YAML::Key << dtype.name << YAML::Value << input.dtype;
    if (input.high > 0)
        out << YAML::Key << high.name << YAML::Value << input.high;
    out << YAML::EndMap;
}

// A TorchScript entry's own keys: the file (absolute, so the written config runs from anywhere),
// its input or inputs and its target.
void writeTorchScript(YAML::Emitter& out, const TorchScriptSpec& script)
{
    using namespace torchscriptkeys;
    out << YAML::Key << path.name << YAML::Value << script.path;
    if (script.inputs.size() == 1 && !script.inputsListed) {
        out << YAML::Key << input.name << YAML::Value;
        writeInput(out, script.inputs.front());
    } else {
        out << YAML::Key << inputs.name << YAML::Value << YAML::BeginSeq;
        for (const InputSpec& one : script.inputs)
            writeInput(out, one);
        out << YAML::EndSeq;
    }
    out << YAML::Key << target.name << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (script.target.kind == TargetSpec::Kind::Classes)
        out << YAML::Key << classes.name << YAML::Value << script.target.classes;
    else
        out << YAML::Key << mse.name << YAML::Value << YAML::Flow << script.target.shape;
    out << YAML::EndMap;
}

} // namespace

std::string toYaml(const ExperimentConfig& c)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << configkeys::version.name << YAML::Value << c.version;
    out << YAML::Key << configkeys::name.name << YAML::Value << c.name;
    if (!c.description.empty())
        out << YAML::Key << configkeys::description.name << YAML::Value << c.description;
    out << YAML::Key << configkeys::device.name << YAML::Value << c.device;
    out << YAML::Key << configkeys::seed.name << YAML::Value << c.seed;
    out << YAML::Key << configkeys::stepsPerBlock.name << YAML::Value << c.stepsPerBlock;
    out << YAML::Key << configkeys::blocks.name << YAML::Value << c.blocks;
    out << YAML::Key << configkeys::minBlocks.name << YAML::Value << c.minBlocks;
    out << YAML::Key << configkeys::targetCiPp.name << YAML::Value << c.targetCiPp;
    out << YAML::Key << configkeys::timeBudgetS.name << YAML::Value << c.timeBudgetS;
    out << YAML::Key << configkeys::processes.name << YAML::Value << c.processes;
    out << YAML::Key << configkeys::warmup.name << YAML::Value << YAML::BeginMap;
    out << YAML::Key << warmupkeys::minSteps.name << YAML::Value << c.warmupMinSteps;
    out << YAML::Key << warmupkeys::maxSteps.name << YAML::Value << c.warmupMaxSteps;
    out << YAML::EndMap;
    out << YAML::Key << configkeys::hostWorkUs.name << YAML::Value << c.hostWorkUs;
    out << YAML::Key << configkeys::optimizer.name << YAML::Value << toString(c.optimizer);
    out << YAML::Key << configkeys::learningRate.name << YAML::Value << c.learningRate;
    out << YAML::Key << configkeys::gpuEvents.name << YAML::Value << c.gpuEvents;
    out << YAML::Key << configkeys::observerControl.name << YAML::Value << c.observerControl;
    out << YAML::Key << configkeys::sink.name << YAML::Value << toString(c.sink);
    writeSweep(out, c.sweep);
    if (c.distributed) {
        out << YAML::Key << configkeys::distributed.name << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << distributedkeys::backend.name << YAML::Value << toString(c.distributed->backend);
        out << YAML::Key << distributedkeys::ranks.name << YAML::Value << c.distributed->ranks;
        out << YAML::Key << distributedkeys::syncOn.name << YAML::Value << toString(c.distributed->syncOn);
        out << YAML::Key << distributedkeys::timeoutS.name << YAML::Value << c.distributed->timeoutS;
        out << YAML::EndMap;
    }

    out << YAML::Key << configkeys::models.name << YAML::Value << YAML::BeginSeq;
    for (const ModelSpec& m : c.models) {
        out << YAML::BeginMap;
        out << YAML::Key << modelkeys::name.name << YAML::Value << m.name;
        out << YAML::Key << modelkeys::batch.name << YAML::Value << m.batch;
        if (m.torchscript) {
            writeTorchScript(out, *m.torchscript);
        } else {
            out << YAML::Key << modelkeys::width.name << YAML::Value << m.width;
            out << YAML::Key << modelkeys::inputSize.name << YAML::Value << m.inputSize;
            out << YAML::Key << modelkeys::classes.name << YAML::Value << m.classes;
        }
        if (m.stepsPerBlock > 0)
            out << YAML::Key << configkeys::stepsPerBlock.name << YAML::Value << m.stepsPerBlock;
        if (m.blocks > 0)
            out << YAML::Key << configkeys::blocks.name << YAML::Value << m.blocks;
        if (m.hostWorkUs >= 0)
            out << YAML::Key << configkeys::hostWorkUs.name << YAML::Value << m.hostWorkUs;
        if (m.timeBudgetS > 0)
            out << YAML::Key << configkeys::timeBudgetS.name << YAML::Value << m.timeBudgetS;
        writeSweep(out, m.sweep);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;

    out << YAML::Key << configkeys::styles.name << YAML::Value << YAML::BeginSeq;
    for (const StyleSpec& s : c.styles) {
        if (s.n > 0)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << stylekeys::name.name << YAML::Value << s.name
                << YAML::Key << stylekeys::n.name << YAML::Value << s.n << YAML::EndMap;
        else
            out << s.name;
    }
    out << YAML::EndSeq;

    out << YAML::Key << configkeys::modes.name << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (Mode m : c.modes)
        out << toString(m);
    out << YAML::EndSeq;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace synctax
