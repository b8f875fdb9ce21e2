#pragma once

#include "core/config/configerror.h"
#include "core/config/experimentconfig.h"

#include <vector>

namespace synctax {

// Every torchscript model of `config` loaded and tried on the CPU (one forward and backward on two
// samples) before anything runs; each problem located at the key of its entry it is about: the
// file (torchscript), the forward's inputs (input or inputs) or the output (target).
std::vector<ConfigError> checkModelFiles(const ExperimentConfig& config);

} // namespace synctax
