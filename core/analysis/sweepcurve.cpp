#include "core/analysis/sweepcurve.h"

#include "core/config/stylecatalog.h"

#include <algorithm>

namespace synctax {

namespace {

bool sweepsHostWork(const ExperimentConfig& config, const std::string& model)
{
    const auto spec
        = std::find_if(config.models.begin(), config.models.end(), [&](const ModelSpec& m) { return m.name == model; });
    if (spec == config.models.end())
        return false;
    const std::optional<SweepSpec>& sweep = config.sweepFor(*spec);
    return sweep && !sweep->hostWorkUs.empty();
}

} // namespace

std::vector<SweepCurve> sweepCurves(const ExperimentResult& result)
{
    std::vector<SweepCurve> curves;
    for (const CellResult& cell : result.cells) {
        if (cell.style == baselineStyle() || isControlStyle(cell.style) || !sweepsHostWork(result.config, cell.model))
            continue;
        auto curve = std::find_if(curves.begin(), curves.end(), [&](const SweepCurve& c) {
            return c.model == cell.model && c.mode == cell.mode && c.batch == cell.batch && c.style == cell.style;
        });
        if (curve == curves.end())
            curve = curves.insert(curves.end(), SweepCurve { cell.model, cell.mode, cell.batch, cell.style, {} });
        SweepPoint point { cell.hostWorkUs, cell.ok, cell.ok ? cell.overheadPct : std::nullopt, std::nullopt };
        if (cell.ok && cell.prediction)
            point.predictedPct = cell.prediction->overheadPct;
        curve->points.push_back(point);
    }
    return curves;
}

} // namespace synctax
