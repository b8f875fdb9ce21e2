#include "core/config/presets.h"

#include "core/config/embeddedfiles.h"

#include <map>

namespace synctax {

std::vector<std::string> presetNames() { return embeddedNames(embeddedPresets()); }

std::optional<std::string> presetText(const std::string& name) { return embeddedText(embeddedPresets(), name); }

std::string defaultPresetName(bool cudaAvailable) { return cudaAvailable ? "seed" : "cpu-seed"; }

std::optional<PresetSize> presetSizedFor(const std::string& name)
{
    // Beside the YAML rather than in it, so that print-config still prints each file as written;
    // Presets.EveryPresetSaysWhatItIsSizedFor keeps this table and resources/presets/ in step.
    static const std::map<std::string, PresetSize> sizes {
        { "cpu-quick", PresetSize::Cpu },
        { "cpu-seed", PresetSize::Cpu },
        { "ddp", PresetSize::Gpu },
        { "ddp-all-ranks", PresetSize::Gpu },
        { "ddp-cpu", PresetSize::Cpu },
        { "middle-regime", PresetSize::Gpu },
        { "observer", PresetSize::Gpu },
        { "regimes", PresetSize::Gpu },
        { "seed", PresetSize::Gpu },
        { "seed-graphs", PresetSize::Gpu },
        { "seed-tiny", PresetSize::Gpu },
        { "sins", PresetSize::Gpu },
    };
    const auto it = sizes.find(name);
    if (it == sizes.end() || !presetText(name))
        return std::nullopt;
    return it->second;
}

} // namespace synctax
