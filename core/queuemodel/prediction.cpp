#include "core/queuemodel/prediction.h"

#include "core/config/stylecatalog.h"
#include "core/queuemodel/bisection.h"
#include "core/queuemodel/simulator.h"
#include "core/statistics/statistics.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace synctax {

namespace {

// The replay of a run's blocks: H per step, and the recorded syncs at the measured round trip.
ReplayOptions replayOptions(const ReplayCosts& costs, double hostWorkUs)
{
    ReplayOptions options;
    options.hostWorkUs = hostWorkUs;
    options.syncUs = costs.syncUs;
    return options;
}

} // namespace

QueueModel queueModelFor(const RegimeMeasurement& measured, double baselineLagMs)
{
    QueueModel model;
    model.dMs = measured.dMs;
    model.gMs = measured.gMs;
    model.hUs = measured.hUs;
    model.lUs = measured.lUs;
    model.k = measured.k > 0 ? measured.k : 1;
    const bool hostPaced = hostSetsThePace(measured.dMs, measured.gMs, measured.hUs);
    model.tailMs = hostPaced && !measured.queueLimited ? std::clamp(baselineLagMs, 0.0, measured.gMs) : 0.0;
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
    predictions.reserve(simulated.size());
    for (const auto& s : simulated)
        predictions.push_back({ s.overheadPct, regime });
    return predictions;
}

std::vector<Prediction> replayPredictions(const StepSequence& step, const ReplayCosts& costs,
    const std::vector<StyleSpec>& styles, int64_t stepsPerBlock, double hostWorkUs, const std::string& regime)
{
    const ReplayOptions options = replayOptions(costs, hostWorkUs);
    std::vector<Prediction> predictions;
    for (const StyleReplayPrediction& p : predictStyles(step, styles, stepsPerBlock, options, costs))
        predictions.push_back({ p.taxPct, regime, "replay" });
    return predictions;
}

StepSequence fitHostToBaseline(const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock,
    double hostWorkUs, double baselineMs, double* scale)
{
    const ReplayOptions options = replayOptions(costs, hostWorkUs);
    const auto baselineAt = [&](double s) {
        ReplayCalibration c;
        c.hostScale = s;
        return replayStyleBlock(calibrated(step, c), { baselineStyle(), 0 }, stepsPerBlock, options, costs).msPerStep;
    };
    double chosen = 1;
    // A GPU-paced step's baseline is its GPU time: a few percent over it is the GPU's noise, not the
    // host's speed, and fitting the host to it would carry the host up to the GPU.
    if (!gpuSetsThePace(step, hostWorkUs) && baselineMs > 0 && std::abs(baselineAt(1) / baselineMs - 1) > 0.02) {
        double lo = 0.25, hi = 4;
        if (baselineAt(lo) <= baselineMs && baselineAt(hi) >= baselineMs) {
            chosen = bisect(baselineAt, lo, hi, baselineMs, 50, Halving::Geometric);
        }
    }
    if (scale)
        *scale = chosen;
    ReplayCalibration c;
    c.hostScale = chosen;
    return calibrated(step, c);
}

namespace {

double replayedMedianLagMs(const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock, double hostWorkUs)
{
    const ReplayOptions options = replayOptions(costs, hostWorkUs);
    std::vector<StepRecord> records;
    replayStyleBlock(step, { baselineStyle(), 0 }, std::max<int64_t>(2, stepsPerBlock), options, costs, &records);
    std::vector<double> lags;
    lags.reserve(records.size());
    for (const StepRecord& r : records)
        lags.push_back(std::max<double>(0, double(r.gpuDoneNs - r.dispatchedNs)) * 1e-6);
    std::nth_element(lags.begin(), lags.begin() + long(lags.size() / 2), lags.end());
    return lags[lags.size() / 2];
}

} // namespace

StepSequence fitTailToLag(const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock, double hostWorkUs,
    double measuredLagMs, double* tailMs)
{
    if (tailMs)
        *tailMs = 0;
    const ReplayRegime regime = replayRegime(step, hostWorkUs);
    if (step.ops.size() < 2 || !hostSetsThePace(regime.dMs, regime.gMs, hostWorkUs) || measuredLagMs <= 0
        || measuredLagMs >= regime.gMs)
        return step;
    const double missingMs = measuredLagMs - replayedMedianLagMs(step, costs, stepsPerBlock, hostWorkUs);
    if (missingMs <= 0)
        return step;
    // Taken from the other ops in proportion to their time, so none goes below zero.
    const double othersUs = gpuTimeUs(step) - step.ops.back().gpuUs;
    const double movedUs = std::min(missingMs * 1e3, 0.9 * othersUs);
    StepSequence out = step;
    for (size_t i = 0; i + 1 < out.ops.size(); ++i)
        out.ops[i].gpuUs *= 1.0 - movedUs / othersUs;
    out.ops.back().gpuUs += movedUs;
    if (tailMs)
        *tailMs = movedUs * 1e-3;
    return out;
}

StepSequence fitIdleStartToDrain(const StepSequence& step, double drainMs, double* idleStartUs)
{
    if (idleStartUs)
        *idleStartUs = 0;
    const int64_t capacity = ReplayOptions {}.queueCapacity;
    const double targetUs = drainMs * 1e3;
    const auto drainAt = [&](double startUs) {
        StepSequence trial = step;
        trial.idleStartUs = startUs;
        return replayedDrainUs(trial, capacity);
    };
    StepSequence out = step;
    out.idleStartUs = 0;
    if (step.ops.empty() || targetUs <= 0 || drainAt(0) >= targetUs)
        return out;
    // The drain grows with the start's delay, by at most the delay: it is reached by targetUs.
    out.idleStartUs = bisect(drainAt, 0, targetUs, targetUs, 60, Halving::Arithmetic);
    if (idleStartUs)
        *idleStartUs = out.idleStartUs;
    return out;
}

namespace {

// The host's time per step as the runner's blocks time it (BlockTiming::dispatchMsPerStep): a block
// of the baseline from an idle GPU, each step from its start to its launches queued, the queue's
// blocking included, the host work left out. Where the host outruns the GPU the queue fills within
// the block, and its later steps are the GPU's pace, not the host's.
double replayedBlockDispatchMs(
    const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock, double hostWorkUs)
{
    const ReplayOptions options = replayOptions(costs, hostWorkUs);
    std::vector<StepRecord> records;
    replayStyleBlock(step, { baselineStyle(), 0 }, std::max<int64_t>(1, stepsPerBlock), options, costs, &records);
    double ns = 0;
    for (const StepRecord& r : records)
        ns += double(r.dispatchedNs - r.startNs);
    return std::max(0.0, ns * 1e-6 / double(records.size()) - hostWorkUs * 1e-3);
}

// How far from the blocks' host time a replayed block may be and still meet it: where the queue is
// full for most of a block its time is the GPU's pace, the same for every host fast enough to fill
// it (ResNet-50 on the H200: within 0.2% for hosts from a quarter to all of the captured one's), and
// only the capture's step from an idle GPU timed that host itself.
constexpr double blockTolerance = 0.01;

// Of the points in [lo, hi] where an increasing f is within blockTolerance of target, the one nearest
// `preferred`.
template <typename F>
double nearestMeeting(F&& f, double lo, double hi, double target, double preferred, Halving halving)
{
    const double from = bisect(f, lo, hi, target - blockTolerance * std::abs(target), 50, halving);
    const double to = bisect(f, lo, hi, target + blockTolerance * std::abs(target), 50, halving);
    return std::clamp(preferred, from, to);
}

// The host scale on `step` whose replayed block dispatch meets targetMs, within [1/4, 4]: the
// nearest to 1 (the step's host as it is) where several do.
double hostScaleForBlockDispatch(
    const StepSequence& step, const ReplayCosts& costs, int64_t stepsPerBlock, double hostWorkUs, double targetMs)
{
    const auto at = [&](double s) {
        ReplayCalibration c;
        c.hostScale = s;
        return replayedBlockDispatchMs(calibrated(step, c), costs, stepsPerBlock, hostWorkUs);
    };
    return nearestMeeting(at, 0.25, 4, targetMs, 1, Halving::Geometric);
}

} // namespace

bool fitsIdleStart(const StepSequence& captured) { return !hostSetsThePace(captured, 0); }

ReplayFit fitReplayToBaseline(const StepSequence& captured, const ReplayCosts& costs, int64_t stepsPerBlock,
    double hostWorkUs, double baselineMs, double baselineLagMs, double drainMs,
    const std::vector<double>& blockDispatchMs)
{
    ReplayFit fit;
    // The drain was measured beside the dispatch the captured step is calibrated to, at the same
    // host speed: the start is fitted there, before the host moves to the baseline's. Its closing
    // synchronize is the replay's syncUs.
    const StepSequence started = fitsIdleStart(captured)
        ? fitIdleStartToDrain(captured, drainBeforeSyncMs(drainMs, costs.syncUs), &fit.idleStartUs)
        : captured;
    StepSequence host;
    const double blocksMs = blockDispatchMs.empty() ? 0 : median(blockDispatchMs);
    if (blocksMs > 0 && !started.ops.empty()) {
        fit.blockDispatchMs = blocksMs;
        fit.hostScale = hostScaleForBlockDispatch(started, costs, stepsPerBlock, hostWorkUs, blocksMs);
        ReplayCalibration c;
        c.hostScale = fit.hostScale;
        host = calibrated(started, c);
        for (int decile = 1; decile <= 9; ++decile) {
            const double ms = quantile(blockDispatchMs, decile / 10.0);
            fit.blockDecilesMs.push_back(ms);
            fit.spreadScales.push_back(hostScaleForBlockDispatch(host, costs, stepsPerBlock, hostWorkUs, ms));
        }
    } else {
        host = fitHostToBaseline(started, costs, stepsPerBlock, hostWorkUs, baselineMs, &fit.hostScale);
    }
    fit.step = fitTailToLag(host, costs, stepsPerBlock, hostWorkUs, baselineLagMs, &fit.tailMs);
    fit.regime = replayRegime(fit.step, hostWorkUs);
    return fit;
}

std::vector<double> withinBlockSpread(const std::vector<std::array<double, 2>>& firstStepsMs, int quantiles)
{
    constexpr size_t fewestBlocks = 8;
    std::vector<double> logRatios;
    for (const auto& [first, second] : firstStepsMs) {
        if (first > 0 && second > 0)
            logRatios.push_back(std::log(first / second));
    }
    if (logRatios.size() < fewestBlocks || quantiles < 1)
        return {};
    const double middle = median(logRatios);
    std::vector<double> spread;
    spread.reserve(size_t(quantiles));
    for (int i = 0; i < quantiles; ++i)
        spread.push_back(std::exp((quantile(logRatios, (i + 0.5) / quantiles) - middle) / std::sqrt(2.0)));
    // A fixed shuffle (Fisher-Yates on mt19937, whose draws the standard fixes), the same everywhere.
    std::mt19937 draw(1);
    for (size_t i = spread.size() - 1; i > 0; --i)
        std::swap(spread[i], spread[draw() % (i + 1)]);
    return spread;
}

namespace {

// Every style's tax at one host scale on the fit's step: plain blocks, or, with a within-block spread,
// blocks whose steps take the spread's factors in turn, every factor at least once (the last block
// wraps around to the first factors), the tax from the mean of the blocks' log ratios to the
// baseline's blocks over the same steps.
std::vector<double> logRatiosAt(const ReplayFit& fit, double scale, const ReplayCosts& costs,
    const std::vector<StyleSpec>& styles, int64_t stepsPerBlock, const ReplayOptions& options)
{
    std::vector<double> logs(styles.size(), 0.0);
    if (fit.stepSpread.empty()) {
        ReplayCalibration c;
        c.hostScale = scale;
        const std::vector<StyleReplayPrediction> at
            = predictStyles(calibrated(fit.step, c), styles, stepsPerBlock, options, costs);
        for (size_t i = 0; i < at.size(); ++i)
            logs[i] = std::log1p(at[i].taxPct * 1e-2);
        return logs;
    }
    std::vector<StepSequence> steps;
    for (const double factor : fit.stepSpread) {
        ReplayCalibration c;
        c.hostScale = scale * factor;
        steps.push_back(calibrated(fit.step, c));
    }
    const size_t perBlock = size_t(std::max<int64_t>(1, stepsPerBlock));
    const size_t blocks = (steps.size() + perBlock - 1) / perBlock;
    for (size_t b = 0; b < blocks; ++b) {
        const double baseline
            = replayStyleBlock(steps, b * perBlock, { baselineStyle(), 0 }, stepsPerBlock, options, costs).msPerStep;
        for (size_t i = 0; i < styles.size(); ++i) {
            const double ms = styles[i].name == baselineStyle()
                ? baseline
                : replayStyleBlock(steps, b * perBlock, styles[i], stepsPerBlock, options, costs).msPerStep;
            logs[i] += std::log(ms / baseline) / double(blocks);
        }
    }
    return logs;
}

} // namespace

std::vector<Prediction> replayPredictions(const ReplayFit& fit, const ReplayCosts& costs,
    const std::vector<StyleSpec>& styles, int64_t stepsPerBlock, double hostWorkUs)
{
    if (fit.spreadScales.empty() && fit.stepSpread.empty())
        return replayPredictions(fit.step, costs, styles, stepsPerBlock, hostWorkUs, fit.regime.label);
    const ReplayOptions options = replayOptions(costs, hostWorkUs);
    const std::vector<double> scales = fit.spreadScales.empty() ? std::vector<double> { 1.0 } : fit.spreadScales;
    std::vector<double> logRatio(styles.size(), 0.0);
    for (const double scale : scales) {
        const std::vector<double> at = logRatiosAt(fit, scale, costs, styles, stepsPerBlock, options);
        for (size_t i = 0; i < at.size(); ++i)
            logRatio[i] += at[i];
    }
    std::vector<Prediction> predictions;
    predictions.reserve(logRatio.size());
    for (const double sum : logRatio)
        predictions.push_back({ std::expm1(sum / double(scales.size())) * 1e2, fit.regime.label, "replay" });
    return predictions;
}

} // namespace synctax
