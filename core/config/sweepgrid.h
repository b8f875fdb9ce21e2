#pragma once

#include "core/config/experimentconfig.h"
#include "core/config/groupkey.h"

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

} // namespace synctax
