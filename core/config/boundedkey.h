#pragma once

#include <cstdint>

namespace synctax {

// A key of a config or simulation file and the values it takes: the loaders check against these and
// every other place (the writer, the config panel, sweep's options) takes its bounds from them.
struct IntegerKey {
    const char* name;
    int64_t min;
    int64_t max;
};
struct UnsignedKey {
    const char* name;
    uint64_t min;
    uint64_t max;
};
struct NumberKey {
    const char* name;
    double min;
    double max;
};

} // namespace synctax
