#pragma once

#include "core/config/groupkey.h"

#include <cstdint>

namespace synctax {

// One cell of an experiment: a model at one host work and batch, a mode and a logging style,
// numbered in start order.
struct CellPlan : CellKey {
    uint32_t index = 0;
};

inline CellPlan cellPlan(uint32_t index, const CellKey& key)
{
    CellPlan plan;
    plan.key() = key;
    plan.index = index;
    return plan;
}

} // namespace synctax
