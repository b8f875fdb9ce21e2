#pragma once

#include "core/config/experimentconfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synctax {

// The models an experiment runs, each once per point of its sweep: host work, then batch, each in
// the order listed (a model without a sweep once). Every entry has its host work and batch set and
// no sweep left; the runner runs each in every mode as one group.
std::vector<ModelSpec> sweepGrid(const ExperimentConfig& config);

// Which keys some model of the config sweeps: those that tell its groups apart in labels.
struct SweptKeys {
    bool hostWork = false;
    bool batch = false;
    bool any() const { return hostWork || batch; }
};
SweptKeys sweptKeys(const ExperimentConfig& config);

// What names one group of a run: a model at one host work and batch, in one mode. Cells, groups,
// round orders and cell plans each carry these four, and belong together when all four match.
struct GroupKey {
    std::string model;
    std::string mode;
    int64_t hostWorkUs = 0;
    int64_t batch = 0;

    bool operator==(const GroupKey& other) const
    {
        return model == other.model && mode == other.mode && hostWorkUs == other.hostWorkUs && batch == other.batch;
    }
    bool operator!=(const GroupKey& other) const { return !(*this == other); }
};

template <typename T> GroupKey groupKeyOf(const T& record)
{
    return { record.model, record.mode, record.hostWorkUs, record.batch };
}

template <typename A, typename B> bool sameGroup(const A& a, const B& b) { return groupKeyOf(a) == groupKeyOf(b); }

} // namespace synctax
