#pragma once

#include "core/experimentresult.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

// One cell (model, mode, style) in two runs.
struct CellDiff {
    std::string model;
    std::string mode;
    std::string style;
    std::optional<Interval> a; // overhead in run A; empty for the baseline or when not measured
    std::optional<Interval> b;
    double msA = 0; // mean ms/step
    double msB = 0;
    bool onlyInA = false;
    bool onlyInB = false;

    bool intervalsOverlap() const;
    bool same() const; // present in both with identical numbers
};

struct EnvironmentDiff {
    std::string field;
    std::string a;
    std::string b;
};

struct ResultsDiff {
    std::vector<CellDiff> cells;
    std::vector<EnvironmentDiff> environment;
    bool identical() const;
};

ResultsDiff diffResults(const ExperimentResult& a, const ExperimentResult& b);
std::string formatDiff(const ResultsDiff& diff);

} // namespace synctax
