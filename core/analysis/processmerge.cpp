#include "core/analysis/processmerge.h"

#include "core/analysis/groupanalysis.h"
#include "core/queuemodel/regime.h"
#include "core/statistics/statistics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace synctax {

namespace {

int64_t share(int64_t total, int count) { return std::max<int64_t>(2, (total + count - 1) / count); }

template <typename T> const GroupResult* findGroup(const ExperimentResult& r, const T& like)
{
    for (const auto& g : r.groups) {
        if (sameGroup(g, like))
            return &g;
    }
    return nullptr;
}

const CellResult* findCell(const ExperimentResult& r, const CellResult& like)
{
    for (const auto& c : r.cells) {
        if (sameGroup(c, like) && c.style == like.style)
            return &c;
    }
    return nullptr;
}

GroupResult mergeGroup(const GroupResult& first, const std::vector<const GroupResult*>& parts)
{
    GroupResult g;
    g.groupKey() = first;
    std::map<std::string, int> reasons;
    std::vector<double> d, gpu, l;
    std::vector<double> clockMedians;
    for (const GroupResult* p : parts) {
        g.processRounds.push_back(p ? p->rounds : 0);
        if (!p)
            continue;
        g.warmupSteps += p->warmupSteps;
        g.rounds += p->rounds;
        ++reasons[p->stopReason];
        if (p->regime.available) {
            d.push_back(p->regime.dMs);
            gpu.push_back(p->regime.gMs);
            l.push_back(p->regime.lUs);
            g.regime.available = true;
            g.regime.k = p->regime.k;
            g.regime.hUs = p->regime.hUs;
            g.regime.queueLimited = g.regime.queueLimited || p->regime.queueLimited;
        } else if (g.regime.reason.empty()) {
            g.regime.reason = p->regime.reason;
        }
        if (p->clocks.available) {
            ClockSummary& c = g.clocks;
            c.minMhz = c.available ? std::min(c.minMhz, p->clocks.minMhz) : p->clocks.minMhz;
            c.maxMhz = std::max(c.maxMhz, p->clocks.maxMhz);
            c.available = true;
            c.defaultMhz = p->clocks.defaultMhz;
            c.blocks += p->clocks.blocks;
            c.lowClockBlocks += p->clocks.lowClockBlocks;
            c.throttleReasons |= p->clocks.throttleReasons;
            clockMedians.push_back(double(p->clocks.medianMhz));
        } else if (g.clocks.reason.empty()) {
            g.clocks.reason = p->clocks.reason;
        }
    }
    if (g.regime.available) {
        g.regime.dMs = median(d);
        g.regime.gMs = median(gpu);
        g.regime.lUs = median(l);
        g.regime.reason.clear();
        g.regime.label = classifyRegime(g.regime.dMs, g.regime.gMs, g.regime.hUs);
    }
    if (g.clocks.available) {
        g.clocks.medianMhz = unsigned(median(clockMedians));
        g.clocks.reason.clear();
    }
    // One reason for the group: stopped or failed anywhere says so; else the most common.
    if (reasons.count("stopped"))
        g.stopReason = "stopped";
    else if (reasons.count("failed"))
        g.stopReason = "failed";
    else if (!reasons.empty())
        g.stopReason = std::max_element(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
        })->first;
    return g;
}

CellResult mergeCell(const CellResult& first, const std::vector<const CellResult*>& parts, const GroupResult& group)
{
    CellResult c;
    c.key() = first.key();
    c.stepsPerBlock = first.stepsPerBlock;
    double weight = 0, lagSum = 0, queueSum = 0, lagWeight = 0, predictionSum = 0;
    int predictions = 0;
    int offset = 0;
    for (size_t p = 0; p < parts.size(); ++p) {
        const CellResult* part = parts[p];
        const int rounds = p < group.processRounds.size() ? group.processRounds[p] : 0;
        if (!part) {
            offset += rounds;
            continue;
        }
        if (!part->ok && c.ok) {
            c.ok = false;
            c.error = part->error;
        }
        for (size_t i = 0; i < part->blockRounds.size(); ++i) {
            c.blockRounds.push_back(part->blockRounds[i] + offset);
            c.blockStepMs.push_back(part->blockStepMs[i]);
            if (i < part->blockDispatchMs.size())
                c.blockDispatchMs.push_back(part->blockDispatchMs[i]);
            if (i < part->blockFirstStepsMs.size())
                c.blockFirstStepsMs.push_back(part->blockFirstStepsMs[i]);
        }
        offset += rounds;
        const double w = double(part->stepsMeasured);
        c.stepsMeasured += part->stepsMeasured;
        c.warmupSteps += part->warmupSteps;
        c.lowClockBlocks += part->lowClockBlocks;
        c.stepMs.mean += part->stepMs.mean * w;
        c.stepMs.median += part->stepMs.median * w;
        c.stepMs.p10 += part->stepMs.p10 * w;
        c.stepMs.p90 += part->stepMs.p90 * w;
        weight += w;
        if (part->syncsPerStep && !c.syncsPerStep)
            c.syncsPerStep = part->syncsPerStep;
        if (part->queue) {
            QueueSummary q = c.queue.value_or(QueueSummary {});
            q.maxQueueSteps = std::max(q.maxQueueSteps, part->queue->maxQueueSteps);
            c.queue = q;
            lagSum += part->queue->medianLagMs * w;
            queueSum += part->queue->medianQueueSteps * w;
            lagWeight += w;
        }
        if (part->graphReplays >= 0)
            c.graphReplays = std::max<int64_t>(c.graphReplays, 0) + part->graphReplays;
        if (part->prediction) {
            predictionSum += part->prediction->overheadPct;
            ++predictions;
            if (!c.prediction)
                c.prediction = part->prediction;
        }
    }
    if (c.blockDispatchMs.size() != c.blockRounds.size()) // a part from a file without them
        c.blockDispatchMs.clear();
    if (c.blockFirstStepsMs.size() != c.blockRounds.size()) // likewise, or blocks of one step
        c.blockFirstStepsMs.clear();
    if (weight > 0) {
        c.stepMs.mean /= weight;
        c.stepMs.median /= weight;
        c.stepMs.p10 /= weight;
        c.stepMs.p90 /= weight;
    }
    if (c.queue && lagWeight > 0) {
        c.queue->medianLagMs = lagSum / lagWeight;
        c.queue->medianQueueSteps = queueSum / lagWeight;
    }
    if (predictions > 0)
        c.prediction->overheadPct = predictionSum / predictions;
    return c;
}

} // namespace

bool spreadOverProcesses(const ExperimentResult& result)
{
    return std::any_of(
        result.groups.begin(), result.groups.end(), [](const GroupResult& g) { return g.processRounds.size() > 1; });
}

ExperimentConfig configForProcess(const ExperimentConfig& config, int index, int count)
{
    ExperimentConfig c = config;
    count = std::max(count, 1);
    c.processes = 1;
    c.seed = config.seed + uint64_t(index);
    c.timeBudgetS = config.timeBudgetS / count;
    c.blocks = share(config.blocks, count);
    c.minBlocks = std::min(share(config.minBlocks, count), c.blocks);
    for (ModelSpec& m : c.models) {
        if (m.timeBudgetS > 0)
            m.timeBudgetS /= count;
        if (m.blocks > 0)
            m.blocks = share(m.blocks, count);
    }
    return c;
}

ExperimentResult mergeProcessResults(const ExperimentConfig& config, const std::vector<ExperimentResult>& parts)
{
    ExperimentResult r;
    r.config = config;
    if (parts.empty())
        return r;
    r.environment = parts.front().environment;
    r.startedAt = parts.front().startedAt;
    for (const ExperimentResult& p : parts) {
        r.durationS += p.durationS;
        r.stopped = r.stopped || p.stopped;
        r.droppedRecords += p.droppedRecords;
        for (const std::string& note : p.notes) {
            if (std::find(r.notes.begin(), r.notes.end(), note) == r.notes.end())
                r.notes.push_back(note);
        }
    }
    r.notes.push_back("spread over " + std::to_string(parts.size())
        + " processes: intervals are taken across the processes' estimates (Student's t)");

    for (const GroupResult& first : parts.front().groups) {
        std::vector<const GroupResult*> groups;
        groups.reserve(parts.size());
        for (const ExperimentResult& p : parts)
            groups.push_back(findGroup(p, first));
        r.groups.push_back(mergeGroup(first, groups));
    }
    for (const CellResult& first : parts.front().cells) {
        const GroupResult* group = findGroup(r, first);
        if (!group)
            continue;
        std::vector<const CellResult*> cells;
        cells.reserve(parts.size());
        for (const ExperimentResult& p : parts)
            cells.push_back(findCell(p, first));
        r.cells.push_back(mergeCell(first, cells, *group));
    }
    for (GroupResult& g : r.groups) {
        int offset = 0;
        for (size_t p = 0; p < parts.size(); ++p) {
            for (const RoundOrder& o : parts[p].roundOrders) {
                if (sameGroup(o, g)) {
                    RoundOrder shifted = o;
                    shifted.round += offset;
                    r.roundOrders.push_back(shifted);
                }
            }
            offset += g.processRounds[p];
        }
        std::vector<CellResult*> cells;
        for (CellResult& c : r.cells) {
            if (sameGroup(c, g))
                cells.push_back(&c);
        }
        for (CellResult* c : cells)
            c->pairedRounds = 0;
        analyseGroup(cells, g, config.seed);
    }
    return r;
}

} // namespace synctax
