#include "core/config/presets.h"

#include "core/config/presetdata.h"

#include <algorithm>

namespace synctax {

std::vector<std::string> presetNames()
{
    std::vector<std::string> names;
    for (const auto& [name, text] : embeddedPresets())
        names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<std::string> presetText(const std::string& name)
{
    for (const auto& [presetName, text] : embeddedPresets()) {
        if (presetName == name)
            return text;
    }
    return std::nullopt;
}

std::string defaultPresetName(bool cudaAvailable) { return cudaAvailable ? "seed" : "cpu-seed"; }

} // namespace synctax
