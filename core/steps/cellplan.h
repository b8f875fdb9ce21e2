#pragma once

#include <cstdint>
#include <string>

namespace synctax {

// One cell of an experiment: a model at one host work and batch, a mode and a logging style,
// numbered in start order.
struct CellPlan {
    uint32_t index = 0;
    std::string model;
    std::string mode;
    std::string style;
    int64_t hostWorkUs = 0;
    int64_t batch = 0;
};

} // namespace synctax
