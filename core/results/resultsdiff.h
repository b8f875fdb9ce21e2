#pragma once

#include "core/analysis/experimentresult.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

// One cell (model, mode, style, at one host work and batch) in two runs.
struct CellDiff : CellKey {
    std::string sweepPoint; // " h=15 ms" and the like where either run swept (sweepPointSuffix), else empty
    std::optional<Interval> a; // overhead in run A; empty for the baseline or when not measured
    std::optional<Interval> b;
    double msA = 0; // mean ms/step
    double msB = 0;
    bool onlyInA = false;
    bool onlyInB = false;

    std::string name() const; // "model/mode/style", then the sweep's point
    bool intervalsOverlap() const;
    bool same() const; // present in both with identical numbers
};

// A config key whose value differs between two runs: top-level ("seed", "warmup.min_steps") or of
// one model ("tiny_mlp.batch"), the values as results.json writes them. A model's key that only
// follows the top-level one (steps_per_block and the like, where both runs left it unset) is listed
// once, at the top level; "models" lists the names when the runs measured different models.
struct ConfigDiff {
    std::string key;
    std::string a;
    std::string b;
};

struct EnvironmentDiff {
    std::string field;
    std::string a;
    std::string b;
};

// One model and mode in two runs: how fast its baseline loop ran, and its regime. A sync's tax in
// the balanced regime moves with the host's speed (D against G), so two runs whose baselines ran at
// different speeds can differ for a physical reason, beyond the noise that their intervals describe.
struct GroupDiff : GroupKey {
    std::string sweepPoint; // as CellDiff's
    double baselineMsA = 0; // mean ms/step of the baseline
    double baselineMsB = 0;
    double noiseFloorPct = 0; // the larger of the two runs' A/A noise floors
    RegimeMeasurement regimeA;
    RegimeMeasurement regimeB;

    double baselineChangePct() const; // B against A
    // The baseline changed by more than the A/A noise floor of either run, and by more than 1%:
    // the loop itself ran at another speed.
    bool speedMoved() const;
};

struct ResultsDiff {
    std::vector<CellDiff> cells;
    std::vector<ConfigDiff> config;
    std::vector<EnvironmentDiff> environment;
    std::vector<GroupDiff> groups; // models and modes measured in both runs
    bool identical() const;
};

ResultsDiff diffResults(const ExperimentResult& a, const ExperimentResult& b);
std::string formatDiff(const ResultsDiff& diff);
// One line: the baseline's speed and the regime in both runs, and what a change means.
std::string describeSpeedChange(const GroupDiff& g);

} // namespace synctax
