#include "core/analysis/groupanalysis.h"

#include "core/config/stylecatalog.h"
#include "core/statistics/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace synctax {

namespace {

const CellResult* findStyle(const std::vector<CellResult*>& cells, const char* style)
{
    for (const CellResult* c : cells) {
        if (c->style == style && c->ok)
            return c;
    }
    return nullptr;
}

} // namespace

PairedBlocks pairByRound(const CellResult& cell, const CellResult& baseline)
{
    PairedBlocks pairs;
    for (size_t i = 0; i < cell.blockRounds.size(); ++i) {
        const auto it = std::find(baseline.blockRounds.begin(), baseline.blockRounds.end(), cell.blockRounds[i]);
        if (it == baseline.blockRounds.end())
            continue;
        pairs.treated.push_back(cell.blockStepMs[i]);
        pairs.baseline.push_back(baseline.blockStepMs[size_t(it - baseline.blockRounds.begin())]);
        pairs.rounds.push_back(cell.blockRounds[i]);
    }
    return pairs;
}

int processOfRound(int round, const std::vector<int>& processRounds)
{
    int first = 0;
    for (size_t p = 0; p < processRounds.size(); ++p) {
        first += processRounds[p];
        if (round < first)
            return int(p);
    }
    return processRounds.empty() ? 0 : int(processRounds.size()) - 1;
}

void analyseGroup(const std::vector<CellResult*>& cells, GroupResult& group, uint64_t seed)
{
    const CellResult* baseline = findStyle(cells, baselineStyle());
    if (!baseline)
        return;
    for (CellResult* cell : cells) {
        if (cell == baseline) {
            cell->verdict = Verdict::Baseline;
            continue;
        }
        if (!cell->ok)
            continue;
        const PairedBlocks pairs = pairByRound(*cell, *baseline);
        cell->pairedRounds = int(pairs.treated.size());
        if (pairs.treated.size() < 2)
            continue;
        std::vector<int> process;
        std::map<int, int> pairsPerProcess;
        for (int round : pairs.rounds) {
            process.push_back(processOfRound(round, group.processRounds));
            ++pairsPerProcess[process.back()];
        }
        // Across processes where two or more measured this cell at least twice; else over rounds.
        const bool acrossProcesses = std::count_if(pairsPerProcess.begin(), pairsPerProcess.end(), [](const auto& p) {
            return p.second >= 2;
        }) >= 2;
        cell->overheadPct = acrossProcesses ? overheadAcrossProcessesPct(pairs.treated, pairs.baseline, process)
                                            : pairedOverheadPct(pairs.treated, pairs.baseline, 2000, seed);
        cell->naiveBestOfPct = naiveBestOfPct(pairs.treated, pairs.baseline);
    }

    const CellResult* aa = findStyle(cells, aaControlStyle());
    group.noiseFloorPct = aa && aa->overheadPct ? noiseFloorPct(*aa->overheadPct) : 0.0;
    group.noiseVerdict = judgeNoise(aa ? aa->overheadPct : std::nullopt);
    for (CellResult* cell : cells) {
        // The A/A control is the floor itself; it is judged on whether its interval holds zero.
        // If it does not, two identical configurations differ: the order or pairing is biased.
        if (cell != baseline && cell->overheadPct)
            cell->verdict = classify(*cell->overheadPct, cell == aa ? 0.0 : group.noiseFloorPct);
    }

    // Drift: the baseline of the first half of the rounds against the second half.
    const auto& blocks = baseline->blockStepMs;
    if (blocks.size() >= 4) {
        const size_t half = blocks.size() / 2;
        DriftCheck d;
        d.firstHalfMs = geometricMean({ blocks.begin(), blocks.begin() + long(half) });
        d.secondHalfMs = geometricMean({ blocks.end() - long(half), blocks.end() });
        d.pct = (d.secondHalfMs / d.firstHalfMs - 1.0) * 100.0;
        d.limitPct = aa && aa->overheadPct ? aa->overheadPct->high - aa->overheadPct->low : 0.0;
        d.flagged = std::abs(d.pct) > d.limitPct;
        group.drift = d;
    }
}

double widestHalfWidthPct(const std::vector<CellResult*>& cells, uint64_t seed)
{
    const CellResult* baseline = findStyle(cells, baselineStyle());
    if (!baseline)
        return std::numeric_limits<double>::infinity();
    double widest = 0;
    for (const CellResult* cell : cells) {
        if (cell == baseline || !cell->ok)
            continue;
        const PairedBlocks pairs = pairByRound(*cell, *baseline);
        if (pairs.treated.size() < 2)
            return std::numeric_limits<double>::infinity();
        const Interval i = pairedOverheadPct(pairs.treated, pairs.baseline, 2000, seed);
        widest = std::max(widest, (i.high - i.low) / 2);
    }
    return widest;
}

} // namespace synctax
