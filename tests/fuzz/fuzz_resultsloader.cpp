// libFuzzer target: any bytes given to the results loader must give a result or errors, never a
// crash, a hang or undefined behaviour. Built by bench/fuzz.sh with clang's sanitizers.
#include "core/results/resultsloader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto loaded = synctax::loadResultsText(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    if (!loaded.result && loaded.errors.empty())
        __builtin_trap(); // rejected without saying why
    return 0;
}
