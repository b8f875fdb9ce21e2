#include "core/config/experimentconfig.h"

#include "core/config/configschema.h"
#include "core/config/stylecatalog.h"

#include <algorithm>

namespace synctax {

std::string toString(Mode mode) { return modeChoice.nameOf(mode); }

std::optional<Mode> modeFromString(const std::string& name) { return modeChoice.find(name); }

std::string toString(OptimizerKind kind) { return configkeys::optimizer.nameOf(kind); }

std::string toString(CollectiveBackend backend) { return distributedkeys::backend.nameOf(backend); }

std::string toString(SyncOn syncOn) { return distributedkeys::syncOn.nameOf(syncOn); }

int64_t ExperimentConfig::stepsPerBlockFor(const ModelSpec& model) const
{
    return model.stepsPerBlock > 0 ? model.stepsPerBlock : stepsPerBlock;
}

int64_t ExperimentConfig::blocksFor(const ModelSpec& model) const { return model.blocks > 0 ? model.blocks : blocks; }

int64_t ExperimentConfig::minBlocksFor(const ModelSpec& model) const { return std::min(minBlocks, blocksFor(model)); }

int64_t ExperimentConfig::hostWorkUsFor(const ModelSpec& model) const
{
    return model.hostWorkUs >= 0 ? model.hostWorkUs : hostWorkUs;
}

double ExperimentConfig::timeBudgetSFor(const ModelSpec& model) const
{
    return model.timeBudgetS > 0 ? model.timeBudgetS : timeBudgetS;
}

const std::optional<SweepSpec>& ExperimentConfig::sweepFor(const ModelSpec& model) const
{
    return model.sweep ? model.sweep : sweep;
}

StyleSpec ExperimentConfig::styleSpecOf(const std::string& style) const
{
    const auto it = std::find_if(styles.begin(), styles.end(), [&](const StyleSpec& s) { return s.name == style; });
    return it != styles.end() ? *it : StyleSpec { baselineStyle(), 0 };
}

namespace {

// A quick run's batches are tiny: a batch sweep keeps its order, without the values that become equal.
void shrinkBatches(std::optional<SweepSpec>& sweep)
{
    if (!sweep)
        return;
    std::vector<int64_t> shrunk;
    for (const int64_t batch : sweep->batch) {
        const int64_t small = std::min<int64_t>(batch, 4);
        if (std::find(shrunk.begin(), shrunk.end(), small) == shrunk.end())
            shrunk.push_back(small);
    }
    sweep->batch = shrunk;
}

} // namespace

void applyQuick(ExperimentConfig& config)
{
    config.stepsPerBlock = std::min<int64_t>(config.stepsPerBlock, 5);
    config.blocks = std::min<int64_t>(config.blocks, 3);
    config.minBlocks = std::min<int64_t>(config.minBlocks, config.blocks);
    config.warmupMinSteps = std::min<int64_t>(config.warmupMinSteps, 2);
    config.warmupMaxSteps = std::min<int64_t>(config.warmupMaxSteps, 5);
    for (auto& m : config.models) {
        m.stepsPerBlock = 0;
        m.blocks = 0;
        m.batch = std::min<int64_t>(m.batch, 4);
        if (m.name != "tiny_mlp" && !m.torchscript)
            m.inputSize = std::min<int64_t>(m.inputSize, 64);
        shrinkBatches(m.sweep);
    }
    shrinkBatches(config.sweep);
}

std::string toString(const SinkSpec& sink)
{
    if (sink.kind == SinkSpec::Kind::File)
        return configkeys::sinkFilePrefix + sink.path;
    return configkeys::sink.nameOf(sink.kind);
}

} // namespace synctax
