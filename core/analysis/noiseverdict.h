#pragma once

#include "core/statistics/statistics.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

struct CellResult;
struct GroupResult;
struct ExperimentResult;

// The noise floor above which a model and mode cannot tell logging styles apart. A cell is a
// finding only when its estimate clears the floor, so at 5% every tax smaller than the balanced
// regime's (+6-9% for SmallResNet on the H200) would read "within noise" whatever it is. The H200
// runs (docs/method.md) had floors of 0.05-3.0%; the 3-round CPU smoke run had 19-35%.
inline constexpr double tooNoisyFloorPct = 5.0;

// Whether the overheads of one model and mode can tell styles apart at all, and if not, why.
enum class NoiseVerdict {
    Trusted, // the A/A control holds zero and the noise floor is at most tooNoisyFloorPct
    NoControl, // no A/A interval (fewer than two rounds, or the control failed): nothing to judge by
    ControlNotWithinNoise, // the A/A control's interval excludes zero: two identical loops differed
    FloorTooHigh, // the noise floor is above tooNoisyFloorPct
};

// "trusted", "no_control", "aa_control_not_within_noise", "noise_floor_too_high"
const char* toString(NoiseVerdict verdict);
std::optional<NoiseVerdict> noiseVerdictFromString(const std::string& text);
std::string noiseVerdictNames(); // "trusted, no_control, ... or noise_floor_too_high"

bool tooNoisy(NoiseVerdict verdict);
bool anyTooNoisy(const ExperimentResult& result); // any of its models and modes

// Judged from the A/A control's interval alone (the floor is its largest distance from zero). A
// control that excludes zero says the method itself is off, so it is named before a high floor.
NoiseVerdict judgeNoise(const std::optional<Interval>& aaControl);

// The verdict of `group` from its A/A cell among `cells`: for results written before the verdict was.
NoiseVerdict judgeNoise(const GroupResult& group, const std::vector<CellResult>& cells);

// Why `group` is too noisy, one short clause per reason that holds ("the A/A control's interval
// excludes 0", "noise floor 21.1% is above 5%"); empty when it is not too noisy.
std::vector<std::string> noiseReasons(const GroupResult& group);

} // namespace synctax
