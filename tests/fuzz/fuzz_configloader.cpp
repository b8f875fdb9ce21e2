// libFuzzer target: any bytes given to the config loader must give a config or errors, never a
// crash, a hang or undefined behaviour. Built by bench/fuzz.sh with clang's sanitizers.
#include "core/config/configloader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto result = synctax::loadConfigText(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    if (!result.config && result.errors.empty())
        __builtin_trap(); // rejected without saying why
    for (const auto& e : result.errors) {
        if (e.message.empty())
            __builtin_trap();
    }
    return 0;
}
