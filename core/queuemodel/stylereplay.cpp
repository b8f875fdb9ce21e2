#include "core/queuemodel/stylereplay.h"

#include "core/config/stylecatalog.h"
#include "core/queuemodel/bisection.h"
#include "core/queuemodel/regime.h"
#include "core/queuemodel/replaystate.h"
#include "core/queuemodel/stylestep.h"
#include "core/text/format.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace synctax {

namespace {

double steadyMsPerStep(const StepSequence& seq, const StyleSpec& style, const ReplayOptions& options,
    const ReplayCosts& costs, double* syncWaitMs)
{
    const std::int64_t n = steadySteps(style);
    const StyleBlockReplay shortBlock = replayStyleBlock(seq, style, n, options, costs);
    const StyleBlockReplay longBlock = replayStyleBlock(seq, style, 2 * n, options, costs);
    *syncWaitMs = steadyPerStep(n, shortBlock.syncWaitMsPerStep, longBlock.syncWaitMsPerStep);
    return steadyPerStep(n, shortBlock.msPerStep, longBlock.msPerStep);
}

} // namespace

StyleHostCost styleHostCost(const StyleSpec& style, const ReplayCosts& costs)
{
    if (const auto it = costs.measured.find(style.name); it != costs.measured.end())
        return it->second;
    const StyleInfo* info = findStyle(style.name);
    if (!info)
        return {};
    const SimulatedCost& c = info->cost;
    const double work = hostWorkCostUs(c.hostWork, costs.formatUs, costs.redrawUs);
    // At a read the style's launches run on an idle GPU before its copies come back.
    const double launches = c.extraLaunches * (costs.extraLaunchHostUs + costs.extraLaunchUs);
    const double reads = c.roundTripsPerRead > 0
        ? costs.syncUs + (c.roundTripsPerRead - 1) * costs.repeatSyncUs.value_or(costs.syncUs)
        : 0.0;
    return { reads + work + launches, work + c.extraLaunches * costs.extraLaunchHostUs };
}

std::string afterSyncText(const ReplayCosts& costs)
{
    if (costs.afterSyncPairs <= 0)
        return {};
    return "; a step after a read-back dispatches " + formatNumber("%.1f", costs.afterSyncUs) + " us slower ("
        + std::to_string(costs.afterSyncPairs) + " pairs)";
}

StyleBlockReplay replayStyleBlock(const StepSequence& seq, const StyleSpec& style, std::int64_t stepsPerBlock,
    const ReplayOptions& options, const ReplayCosts& costs)
{
    return replayStyleBlock(seq, style, stepsPerBlock, options, costs, nullptr);
}

namespace {

// A block whose step k replays seqAt(k).
template <typename SeqAt>
StyleBlockReplay replayBlock(const SeqAt& seqAt, const StyleSpec& style, std::int64_t stepsPerBlock,
    const ReplayOptions& options, const ReplayCosts& costs, std::vector<StepRecord>* records)
{
    const size_t capacity = size_t(std::max<std::int64_t>(1, options.queueCapacity));
    const std::int64_t steps = std::max<std::int64_t>(1, stepsPerBlock);
    const StyleWork work = styleWork(style, costs);
    ReplayState s;
    const auto ns = [](double us) { return std::int64_t(std::llround(us * 1e3)); };
    for (std::int64_t step = 0; step < steps; ++step) {
        StepRecord record;
        record.step = std::uint32_t(step);
        record.startNs = ns(s.host);
        replayHostAndStep(s, seqAt(step), options, capacity);
        record.dispatchedNs = ns(s.host);
        record.gpuDoneNs = ns(s.gpuFree);
        replayStyleWork(s, work, step, steps, capacity);
        if (records) {
            record.loggedNs = ns(s.host);
            records->push_back(record);
        }
    }
    replaySync(s, costs.syncUs); // the closing synchronize every style pays, the baseline included
    StyleBlockReplay r;
    r.msPerStep = s.host * 1e-3 / double(steps);
    r.syncWaitMsPerStep = s.syncWait * 1e-3 / double(steps);
    r.queueBlockedMsPerStep = s.blocked * 1e-3 / double(steps);
    r.maxPending = s.maxPending;
    return r;
}

} // namespace

StyleBlockReplay replayStyleBlock(const StepSequence& seq, const StyleSpec& style, std::int64_t stepsPerBlock,
    const ReplayOptions& options, const ReplayCosts& costs, std::vector<StepRecord>* records)
{
    return replayBlock(
        [&](std::int64_t) -> const StepSequence& { return seq; }, style, stepsPerBlock, options, costs, records);
}

StyleBlockReplay replayStyleBlock(const std::vector<StepSequence>& steps, std::size_t first, const StyleSpec& style,
    std::int64_t stepsPerBlock, const ReplayOptions& options, const ReplayCosts& costs)
{
    return replayBlock([&](std::int64_t k) -> const StepSequence& { return steps[(first + size_t(k)) % steps.size()]; },
        style, stepsPerBlock, options, costs, nullptr);
}

std::vector<StyleReplayPrediction> predictStyles(const StepSequence& seq, const std::vector<StyleSpec>& styles,
    std::int64_t stepsPerBlock, const ReplayOptions& options, const ReplayCosts& costs)
{
    const auto replay = [&](const StyleSpec& style) {
        StyleReplayPrediction p;
        p.style = style;
        if (stepsPerBlock > 0) {
            const StyleBlockReplay block = replayStyleBlock(seq, style, stepsPerBlock, options, costs);
            p.stepMs = block.msPerStep;
            p.syncWaitMs = block.syncWaitMsPerStep;
        } else {
            p.stepMs = steadyMsPerStep(seq, style, options, costs, &p.syncWaitMs);
        }
        return p;
    };
    const StyleReplayPrediction baseline = replay({ baselineStyle(), 0 });
    std::vector<StyleReplayPrediction> predictions;
    for (const StyleSpec& style : styles) {
        StyleReplayPrediction p = style.name == baselineStyle() ? baseline : replay(style);
        p.style = style;
        p.taxPct = baseline.stepMs > 0 ? (p.stepMs / baseline.stepMs - 1.0) * 100.0 : 0.0;
        predictions.push_back(p);
    }
    return predictions;
}

namespace {

// The profiler's cost a calibration takes out before each recorded host event (perEventUs on the
// loop's thread, perEventOffLoopUs on the others): element j before event j, the last all of it.
std::vector<double> costBeforeEvents(const StepSequence& seq, const ReplayCalibration& c)
{
    const double onLoop = std::max(0.0, c.perEventUs);
    const double offLoop = std::max(0.0, c.perEventOffLoopUs.value_or(c.perEventUs));
    std::vector<double> before(seq.hostEventUs.size() + 1, 0.0);
    for (size_t j = 0; j < seq.hostEventUs.size(); ++j) {
        const bool off = j < seq.hostEventOffLoop.size() && seq.hostEventOffLoop[j] != 0;
        before[j + 1] = before[j] + (off ? offLoop : onLoop);
    }
    return before;
}

// Every host offset of the sequence but its events' through `map`: the launches (a launch call's
// own span keeps its events' share: its end maps like any offset), the step's end, the syncs.
template <typename Map> void mapHostOffsets(StepSequence& seq, const Map& map)
{
    for (LaunchOp& op : seq.ops) {
        const double start = map(op.issueUs);
        op.hostUs = std::max(0.0, map(op.issueUs + op.hostUs) - start);
        op.issueUs = start;
    }
    seq.stepHostUs = map(seq.stepHostUs);
    for (double& at : seq.syncAtUs)
        at = map(at);
    for (double& end : seq.syncEndUs)
        end = map(end);
}

// t through the knots (ReplayCalibration::hostKnots), from their first coordinate to their second,
// or back with `inverse`: linear between two knots, and moved by the nearest knot's difference
// outside them (never below 0).
double throughKnots(const std::vector<std::pair<double, double>>& knots, double t, bool inverse)
{
    const auto from = [&](size_t i) { return inverse ? knots[i].second : knots[i].first; };
    const auto to = [&](size_t i) { return inverse ? knots[i].first : knots[i].second; };
    size_t i = 0;
    while (i + 1 < knots.size() && from(i + 1) <= t)
        ++i;
    if (i + 1 == knots.size() || t <= from(i))
        return std::max(0.0, t - from(i) + to(i));
    const double span = from(i + 1) - from(i);
    const double w = span > 0 ? (t - from(i)) / span : 0.0;
    return to(i) + w * (to(i + 1) - to(i));
}

// Host offsets with the profiler's cost taken out at every recorded host event before them
// (perEventUs on the loop's thread, perEventOffLoopUs on the others), kept in order (two events
// closer than the cost do not move time backwards), then scaled.
class HostMap {
public:
    HostMap(const StepSequence& seq, const ReplayCalibration& c)
        : m_events(seq.hostEventUs)
        , m_scale(c.hostScale)
        , m_removedBefore(costBeforeEvents(seq, c))
        , m_knots(c.hostKnots)
    {
        m_costed = c.perEventUs > 0 || c.perEventOffLoopUs.value_or(0) > 0;
        double previous = -1e300;
        for (size_t j = 0; j < m_events.size(); ++j) {
            previous = std::max(previous, m_events[j] - m_removedBefore[j]);
            m_mapped.push_back(previous);
        }
    }
    double operator()(double t) const
    {
        if (!m_knots.empty())
            return throughKnots(m_knots, t, false) * m_scale;
        if (!m_costed)
            return t * m_scale;
        const size_t before = size_t(std::lower_bound(m_events.begin(), m_events.end(), t) - m_events.begin());
        double mapped = t - m_removedBefore[before];
        if (before > 0)
            mapped = std::max(mapped, m_mapped[before - 1]);
        return std::max(0.0, mapped) * m_scale;
    }

private:
    const std::vector<double>& m_events;
    double m_scale;
    bool m_costed = false;
    std::vector<double> m_removedBefore; // the cost taken out before event j (j = events: all of it)
    std::vector<double> m_mapped; // each event's own mapped offset
    std::vector<std::pair<double, double>> m_knots;
};

} // namespace

StepSequence calibrated(const StepSequence& seq, const ReplayCalibration& c)
{
    StepSequence out = seq;
    const HostMap map(seq, c);
    mapHostOffsets(out, map);
    for (LaunchOp& op : out.ops)
        op.gpuUs = op.gpuUs * c.gpuScale + c.gpuGapUs;
    for (double& e : out.hostEventUs)
        e = map(e);
    return out;
}

StepSequence uncalibratedHost(const StepSequence& seq, const ReplayCalibration& c)
{
    const double scale = c.hostScale > 0 ? c.hostScale : 1.0;
    // The cost calibrated() took out before each mapped event (the events keep their order).
    const std::vector<double> removedBefore = costBeforeEvents(seq, c);
    const auto raw = [&](double mapped) {
        if (!c.hostKnots.empty())
            return throughKnots(c.hostKnots, mapped / scale, true);
        const size_t before = size_t(
            std::lower_bound(seq.hostEventUs.begin(), seq.hostEventUs.end(), mapped) - seq.hostEventUs.begin());
        return mapped / scale + removedBefore[before];
    };
    StepSequence out = seq;
    mapHostOffsets(out, raw);
    for (size_t j = 0; j < out.hostEventUs.size(); ++j)
        out.hostEventUs[j]
            = c.hostKnots.empty() ? seq.hostEventUs[j] / scale + removedBefore[j] : raw(seq.hostEventUs[j]);
    return out;
}

StepSequence withoutSyncs(const StepSequence& seq, const std::vector<bool>& drop)
{
    StepSequence out;
    out.idleStartUs = seq.idleStartUs;
    const auto endOf = [&](size_t i) { return i < seq.syncEndUs.size() ? seq.syncEndUs[i] : seq.syncAtUs[i]; };
    // The host time removed before an offset: the dropped syncs that ended at or before it.
    const auto removedBefore = [&](double offsetUs) {
        double removed = 0;
        for (size_t i = 0; i < seq.syncAtUs.size(); ++i) {
            if (drop[i] && endOf(i) <= offsetUs)
                removed += endOf(i) - seq.syncAtUs[i];
        }
        return removed;
    };
    const auto insideDropped = [&](double offsetUs) {
        for (size_t i = 0; i < seq.syncAtUs.size(); ++i) {
            if (drop[i] && offsetUs >= seq.syncAtUs[i] && offsetUs < endOf(i))
                return true;
        }
        return false;
    };
    for (const LaunchOp& op : seq.ops) {
        if (insideDropped(op.issueUs))
            continue;
        LaunchOp moved = op;
        moved.issueUs -= removedBefore(op.issueUs);
        out.ops.push_back(moved);
    }
    for (size_t i = 0; i < seq.syncAtUs.size(); ++i) {
        if (drop[i])
            continue;
        const double shift = removedBefore(seq.syncAtUs[i]);
        out.syncAtUs.push_back(seq.syncAtUs[i] - shift);
        out.syncEndUs.push_back(endOf(i) - shift);
    }
    out.stepHostUs = seq.stepHostUs - removedBefore(seq.stepHostUs);
    return out;
}

StepSequence withoutSyncs(const StepSequence& seq)
{
    return withoutSyncs(seq, std::vector<bool>(seq.syncAtUs.size(), true));
}

double gpuTimeUs(const StepSequence& seq)
{
    double total = 0;
    for (const LaunchOp& op : seq.ops)
        total += op.gpuUs;
    return total;
}

double replayedDispatchUs(const StepSequence& seq, std::int64_t queueCapacity)
{
    ReplayState s;
    replayRecordedStep(s, seq, 0, size_t(std::max<std::int64_t>(1, queueCapacity)));
    return s.host;
}

double replayedDrainUs(const StepSequence& seq, std::int64_t queueCapacity)
{
    ReplayState s;
    replayRecordedStep(s, seq, 0, size_t(std::max<std::int64_t>(1, queueCapacity)));
    return std::max(s.host, s.gpuFree);
}

double drainBeforeSyncMs(double drainMs, double syncUs) { return drainMs > 0 ? drainMs - syncUs * 1e-3 : 0; }

namespace {

// The host scale on top of `c` whose replay from an idle GPU dispatches targetUs. The replayed host
// time grows with the scale (a full queue can only hold it back for longer).
double hostScaleFor(const StepSequence& seq, ReplayCalibration c, double targetUs, std::int64_t queueCapacity)
{
    const auto hostAt = [&](double scale) {
        c.hostScale = scale;
        return replayedDispatchUs(calibrated(seq, c), queueCapacity);
    };
    return bisect(hostAt, 1e-3, 100, targetUs, 80, Halving::Geometric);
}

// The profiler's cost per recorded host event that alone (no scale) brings the replayed dispatch to
// targetUs, up to what leaves 5% of the recorded host time; nullopt where none does.
std::optional<double> costAloneFor(
    const StepSequence& seq, const ReplayCalibration& c, double targetUs, std::int64_t queueCapacity)
{
    const auto hostWithCost = [&](double cost) {
        ReplayCalibration trial = c;
        trial.perEventUs = cost;
        return replayedDispatchUs(calibrated(seq, trial), queueCapacity);
    };
    const double most = 0.95 * seq.stepHostUs / double(seq.hostEventUs.size());
    if (hostWithCost(0) < targetUs || hostWithCost(most) > targetUs)
        return std::nullopt;
    return bisect([&](double cost) { return -hostWithCost(cost); }, 0, most, -targetUs, 60, Halving::Arithmetic);
}

} // namespace

ReplayCalibration fitCalibration(
    const StepSequence& seq, double dispatchMs, double gMs, std::int64_t queueCapacity, double drainMs)
{
    ReplayCalibration c;
    c.evenFirst = true;
    const double recordedGpu = gpuTimeUs(seq);
    const double targetGpu = gMs * 1e3;
    if (!seq.ops.empty() && recordedGpu > 0 && targetGpu > 0) {
        if (targetGpu >= recordedGpu)
            c.gpuGapUs = (targetGpu - recordedGpu) / double(seq.ops.size());
        else
            c.gpuScale = targetGpu / recordedGpu;
    }
    const double targetHost = dispatchMs * 1e3;
    if (targetHost <= 0 || seq.stepHostUs <= 0)
        return c;
    ReplayCalibration even = c;
    even.hostScale = hostScaleFor(seq, c, targetHost, queueCapacity);
    const double drainUs = drainMs * 1e3;
    const auto drainOf
        = [&](const ReplayCalibration& trial) { return replayedDrainUs(calibrated(seq, trial), queueCapacity); };
    if (drainUs <= 0 || seq.hostEventUs.empty())
        return even;
    const double drainEven = drainOf(even);
    if (drainEven <= drainUs)
        return even;
    const std::optional<double> alone = costAloneFor(seq, c, targetHost, queueCapacity);
    if (!alone)
        return even;
    // A share of that cost taken out per event, the rest of the way stretched evenly.
    const auto at = [&](double share) {
        ReplayCalibration trial = c;
        trial.perEventUs = share * *alone;
        trial.hostScale = hostScaleFor(seq, trial, targetHost, queueCapacity);
        return trial;
    };
    ReplayCalibration all = at(1);
    const double drainAll = drainOf(all);
    if (drainAll >= drainEven)
        return even; // the cost per event drains no sooner: the late drain is not the host's shape
    if (drainAll >= drainUs)
        return all;
    return at(bisect([&](double share) { return -drainOf(at(share)); }, 0, 1, -drainUs, 40, Halving::Arithmetic));
}

double syncWaitsUs(const StepSequence& seq)
{
    double us = 0;
    for (size_t i = 0; i < seq.syncAtUs.size() && i < seq.syncEndUs.size(); ++i)
        us += seq.syncEndUs[i] - seq.syncAtUs[i];
    return us;
}

ReplayRegime replayRegime(const StepSequence& seq, double hostWorkUs)
{
    ReplayRegime r;
    r.dMs = std::max(0.0, seq.stepHostUs - syncWaitsUs(seq)) * 1e-3;
    r.gMs = gpuTimeUs(seq) * 1e-3;
    r.label = classifyRegime(r.dMs, r.gMs, hostWorkUs);
    return r;
}

bool gpuSetsThePace(const StepSequence& seq, double hostWorkUs)
{
    const ReplayRegime r = replayRegime(seq, hostWorkUs);
    return gpuSetsThePace(r.dMs, r.gMs, hostWorkUs);
}

bool hostSetsThePace(const StepSequence& seq, double hostWorkUs)
{
    const ReplayRegime r = replayRegime(seq, hostWorkUs);
    return hostSetsThePace(r.dMs, r.gMs, hostWorkUs);
}

std::size_t medianStepIndex(const std::vector<StepSequence>& steps)
{
    if (steps.empty())
        return 0;
    std::vector<size_t> order(steps.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto mid = order.begin() + long(order.size() / 2);
    std::nth_element(
        order.begin(), mid, order.end(), [&](size_t a, size_t b) { return steps[a].stepHostUs < steps[b].stepHostUs; });
    return *mid;
}

StepSequence medianStep(const std::vector<StepSequence>& steps)
{
    return steps.empty() ? StepSequence {} : steps[medianStepIndex(steps)];
}

} // namespace synctax
