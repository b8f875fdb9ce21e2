#include "core/config/sweepgrid.h"

namespace synctax {

std::vector<ModelSpec> sweepGrid(const ExperimentConfig& config)
{
    std::vector<ModelSpec> grid;
    for (const ModelSpec& model : config.models) {
        const std::optional<SweepSpec>& sweep = config.sweepFor(model);
        const std::vector<int64_t> hostWorks = sweep && !sweep->hostWorkUs.empty()
            ? sweep->hostWorkUs
            : std::vector<int64_t> { config.hostWorkUsFor(model) };
        const std::vector<int64_t> batches
            = sweep && !sweep->batch.empty() ? sweep->batch : std::vector<int64_t> { model.batch };
        for (const int64_t hostWorkUs : hostWorks) {
            for (const int64_t batch : batches) {
                ModelSpec point = model;
                point.hostWorkUs = hostWorkUs;
                point.batch = batch;
                point.sweep.reset();
                grid.push_back(point);
            }
        }
    }
    return grid;
}

SweptKeys sweptKeys(const ExperimentConfig& config)
{
    SweptKeys swept;
    for (const ModelSpec& model : config.models) {
        if (const std::optional<SweepSpec>& sweep = config.sweepFor(model)) {
            swept.hostWork = swept.hostWork || !sweep->hostWorkUs.empty();
            swept.batch = swept.batch || !sweep->batch.empty();
        }
    }
    return swept;
}

} // namespace synctax
