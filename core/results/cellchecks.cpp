#include "core/results/cellchecks.h"

#include "core/config/stylecatalog.h"
#include "core/config/sweepgrid.h"
#include "core/text/format.h"

#include <algorithm>

namespace synctax {

namespace {

std::string knownStyles()
{
    std::string names;
    for (const std::string& name : styleNames())
        names += (names.empty() ? "" : ", ") + name;
    return names + "; or a control the runner adds: " + aaControlStyle() + ", " + observerControlStyle();
}

} // namespace

std::vector<CellProblem> cellListProblems(
    const std::vector<CellResult>& cells, const std::string& pointer, const ExperimentConfig& config)
{
    std::vector<CellProblem> problems;
    const SweptKeys swept = sweptKeys(config);
    const auto at = [&](size_t i) { return pointer + "/" + std::to_string(i); };
    const auto groupName = [&](const CellResult& c) { return c.model + "/" + c.mode + sweepPointSuffix(swept, c); };
    for (size_t i = 0; i < cells.size(); ++i) {
        const CellResult& c = cells[i];
        if (!findStyle(c.style) && !isControlStyle(c.style))
            problems.push_back({ at(i) + "/style", "unknown style \"" + c.style + "\"; expected " + knownStyles() });
        const auto first = std::find_if(
            cells.begin(), cells.begin() + long(i), [&](const CellResult& other) { return other.key() == c.key(); });
        if (first != cells.begin() + long(i)) {
            problems.push_back({ at(i),
                "the same cell as " + at(size_t(first - cells.begin())) + " (" + groupName(c) + "/" + c.style
                    + "); a run measures each cell once" });
        }
        // Reported once per group, at its first cell.
        const bool firstOfGroup = std::none_of(
            cells.begin(), cells.begin() + long(i), [&](const CellResult& other) { return sameGroup(other, c); });
        const bool hasBaseline = std::any_of(cells.begin(), cells.end(),
            [&](const CellResult& other) { return sameGroup(other, c) && other.style == baselineStyle(); });
        if (firstOfGroup && !hasBaseline) {
            problems.push_back({ at(i),
                groupName(c) + " has no '" + baselineStyle()
                    + "' cell: the baseline its overheads are measured against" });
        }
    }
    return problems;
}

} // namespace synctax
