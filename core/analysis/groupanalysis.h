#pragma once

#include "core/analysis/experimentresult.h"

#include <cstdint>
#include <vector>

namespace synctax {

struct PairedBlocks {
    std::vector<double> treated;
    std::vector<double> baseline;
    std::vector<int> rounds; // the round of each pair
};

// The process (0-based) that measured `round`, given the rounds each process measured in order;
// 0 when the run was one process.
int processOfRound(int round, const std::vector<int>& processRounds);

// The blocks of `cell` and `baseline` measured in the same rounds, in round order.
PairedBlocks pairByRound(const CellResult& cell, const CellResult& baseline);

// For the cells of one model and mode (the baseline and the A/A control among them): each cell's
// paired overhead, naive best-of and verdict; the group's noise floor, noise verdict and drift check. When the
// group ran in several processes (group.processRounds), the interval is taken across processes
// (overheadAcrossProcessesPct).
void analyseGroup(const std::vector<CellResult*>& cells, GroupResult& group, uint64_t seed);

// The widest 95% interval half-width, in points, among the cells compared with the baseline;
// infinite while any of them has too few rounds for an interval.
double widestHalfWidthPct(const std::vector<CellResult*>& cells, uint64_t seed);

} // namespace synctax
