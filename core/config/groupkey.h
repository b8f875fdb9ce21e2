#pragma once

#include <cstdint>
#include <string>

namespace synctax {

// What names one group of a run: a model at one host work and batch, in one mode. Records of a
// group (its result, round orders, a diff of it) embed it, and belong together when it matches.
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
    // A record takes another's group with `groupKey() = other`.
    GroupKey& groupKey() { return *this; }
    const GroupKey& groupKey() const { return *this; }
};

// What names one cell: a logging style of a group. Cell records (the plan, the result, a diff) embed
// it; a record takes another's key with `key() = other.key()`.
struct CellKey : GroupKey {
    std::string style;

    bool operator==(const CellKey& other) const
    {
        return static_cast<const GroupKey&>(*this) == other && style == other.style;
    }
    bool operator!=(const CellKey& other) const { return !(*this == other); }
    CellKey& key() { return *this; }
    const CellKey& key() const { return *this; }
};

template <typename T> GroupKey groupKeyOf(const T& record)
{
    return { record.model, record.mode, record.hostWorkUs, record.batch };
}

template <typename A, typename B> bool sameGroup(const A& a, const B& b) { return groupKeyOf(a) == groupKeyOf(b); }

} // namespace synctax
