#include "core/queuemodel/prediction.h"

#include "core/config/stylecatalog.h"
#include "core/queuemodel/simulator.h"

#include <algorithm>
#include <cmath>

namespace synctax {

QueueModel queueModelFor(const RegimeMeasurement& measured, double baselineLagMs)
{
    QueueModel model;
    model.dMs = measured.dMs;
    model.gMs = measured.gMs;
    model.hUs = measured.hUs;
    model.lUs = measured.lUs;
    model.k = measured.k > 0 ? measured.k : 1;
    const bool dispatchBound = classifyRegime(measured.dMs, measured.gMs, measured.hUs) == "dispatch_bound";
    model.tailMs = dispatchBound && !measured.queueLimited ? std::clamp(baselineLagMs, 0.0, measured.gMs) : 0.0;
    return model;
}

Prediction predictOverhead(
    const RegimeMeasurement& measured, const StyleSpec& style, int64_t stepsPerBlock, double baselineLagMs)
{
    return predictOverheads(measured, { style }, stepsPerBlock, baselineLagMs).front();
}

std::vector<Prediction> predictOverheads(const RegimeMeasurement& measured, const std::vector<StyleSpec>& styles,
    int64_t stepsPerBlock, double baselineLagMs)
{
    const std::string regime
        = measured.label.empty() ? classifyRegime(measured.dMs, measured.gMs, measured.hUs) : measured.label;
    const auto simulated = simulateStyles(queueModelFor(measured, baselineLagMs), styles, stepsPerBlock, 1);
    std::vector<Prediction> predictions;
    for (const auto& s : simulated)
        predictions.push_back({ s.overheadPct, regime });
    return predictions;
}

std::vector<Prediction> replayPredictions(const StepSequence& step, const ReplayCosts& costs,
    const std::vector<StyleSpec>& styles, int64_t stepsPerBlock, double hostWorkUs, const std::string& regime)
{
    ReplayOptions options;
    options.hostWorkUs = hostWorkUs;
    options.syncUs = costs.syncUs;
    std::vector<Prediction> predictions;
    for (const StyleReplayPrediction& p : predictStyles(step, styles, stepsPerBlock, options, costs))
        predictions.push_back({ p.taxPct, regime, "replay" });
    return predictions;
}

StepSequence fitHostToBaseline(const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock,
    double hostWorkUs, double baselineMs, double* scale)
{
    ReplayOptions options;
    options.hostWorkUs = hostWorkUs;
    options.syncUs = costs.syncUs;
    const auto baselineAt = [&](double s) {
        ReplayCalibration c;
        c.hostScale = s;
        return replayStyleBlock(calibrated(step, c), { baselineStyle(), 0 }, stepsPerBlock, options, costs).msPerStep;
    };
    double chosen = 1;
    if (baselineMs > 0 && std::abs(baselineAt(1) / baselineMs - 1) > 0.02) {
        double lo = 0.25, hi = 4;
        if (baselineAt(lo) <= baselineMs && baselineAt(hi) >= baselineMs) {
            for (int i = 0; i < 50; ++i) {
                const double mid = std::sqrt(lo * hi);
                (baselineAt(mid) < baselineMs ? lo : hi) = mid;
            }
            chosen = std::sqrt(lo * hi);
        }
    }
    if (scale)
        *scale = chosen;
    ReplayCalibration c;
    c.hostScale = chosen;
    return calibrated(step, c);
}

} // namespace synctax
