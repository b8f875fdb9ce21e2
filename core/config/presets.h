#pragma once

#include <optional>
#include <string>
#include <vector>

namespace synctax {

std::vector<std::string> presetNames();
std::optional<std::string> presetText(const std::string& name);

// The preset a plain `synctax-run run` or `make run` uses on this machine.
std::string defaultPresetName(bool cudaAvailable);

// What a preset's model shapes, blocks and budgets are sized for. A GPU-sized preset on a CPU takes
// seconds a step: its blocks outlast its time budgets, which then end it with few rounds or none.
enum class PresetSize { Cpu, Gpu };
std::optional<PresetSize> presetSizedFor(const std::string& name); // nullopt: no such preset

} // namespace synctax
