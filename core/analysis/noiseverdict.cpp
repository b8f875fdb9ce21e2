#include "core/analysis/noiseverdict.h"

#include "core/analysis/experimentresult.h"
#include "core/config/stylecatalog.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace synctax {

namespace {

constexpr NoiseVerdict allVerdicts[] = { NoiseVerdict::Trusted, NoiseVerdict::NoControl,
    NoiseVerdict::ControlNotWithinNoise, NoiseVerdict::FloorTooHigh };

} // namespace

const char* toString(NoiseVerdict verdict)
{
    switch (verdict) {
    case NoiseVerdict::Trusted:
        return "trusted";
    case NoiseVerdict::NoControl:
        return "no_control";
    case NoiseVerdict::ControlNotWithinNoise:
        return "aa_control_not_within_noise";
    case NoiseVerdict::FloorTooHigh:
        return "noise_floor_too_high";
    }
    return "no_control";
}

std::optional<NoiseVerdict> noiseVerdictFromString(const std::string& text)
{
    for (NoiseVerdict v : allVerdicts) {
        if (text == toString(v))
            return v;
    }
    return std::nullopt;
}

std::string noiseVerdictNames()
{
    std::string names;
    for (size_t i = 0; i < std::size(allVerdicts); ++i)
        names += (i == 0                                   ? ""
                         : i + 1 == std::size(allVerdicts) ? " or "
                                                           : ", ")
            + std::string(toString(allVerdicts[i]));
    return names;
}

bool tooNoisy(NoiseVerdict verdict)
{
    return verdict == NoiseVerdict::ControlNotWithinNoise || verdict == NoiseVerdict::FloorTooHigh;
}

NoiseVerdict judgeNoise(const std::optional<Interval>& aaControl)
{
    if (!aaControl)
        return NoiseVerdict::NoControl;
    if (aaControl->low > 0 || aaControl->high < 0)
        return NoiseVerdict::ControlNotWithinNoise;
    if (noiseFloorPct(*aaControl) > tooNoisyFloorPct)
        return NoiseVerdict::FloorTooHigh;
    return NoiseVerdict::Trusted;
}

NoiseVerdict judgeNoise(const GroupResult& group, const std::vector<CellResult>& cells)
{
    for (const CellResult& c : cells) {
        if (sameGroup(c, group) && c.style == aaControlStyle() && c.ok)
            return judgeNoise(c.overheadPct);
    }
    return NoiseVerdict::NoControl;
}

bool anyTooNoisy(const ExperimentResult& result)
{
    return std::any_of(
        result.groups.begin(), result.groups.end(), [](const GroupResult& g) { return tooNoisy(g.noiseVerdict); });
}

std::vector<std::string> noiseReasons(const GroupResult& group)
{
    if (!tooNoisy(group.noiseVerdict))
        return {};
    std::vector<std::string> reasons;
    if (group.noiseVerdict == NoiseVerdict::ControlNotWithinNoise)
        reasons.push_back("the A/A control's interval excludes 0");
    if (group.noiseVerdict == NoiseVerdict::FloorTooHigh || group.noiseFloorPct > tooNoisyFloorPct) {
        char floor[96];
        std::snprintf(floor, sizeof floor, "noise floor %.1f%% is above %.0f%%", group.noiseFloorPct, tooNoisyFloorPct);
        reasons.push_back(floor);
    }
    return reasons;
}

} // namespace synctax
