#include "core/results/runoutputs.h"

#include "core/results/resultsjson.h"
#include "core/results/resulttable.h"
#include "core/results/stepcsvwriter.h"
#include "core/results/traceexport.h"
#include "core/text/format.h"

#include <filesystem>

namespace synctax {

std::string runFolderName(const std::string& configName, std::chrono::system_clock::time_point start)
{
    return configName + "-" + formatTimestamp(start, TimestampStyle::FolderName);
}

std::string rankFolderName(int rank) { return "rank-" + std::to_string(rank); }

std::string rankStepsPath(const std::string& resultsDir, const RankOutcome& rank)
{
    const std::string folder = rank.folder.empty() ? rankFolderName(rank.rank) : rank.folder;
    return (std::filesystem::path(resultsDir) / folder / stepsFileName).string();
}

std::vector<std::string> writeRunOutputs(const std::string& dir, const RunOutputs& outputs)
{
    const auto in = [&](const char* name) { return (std::filesystem::path(dir) / name).string(); };
    std::vector<std::string> written;
    written.push_back(in(resultsFileName));
    writeJsonFileAtomically(written.back(), toJson(outputs.result));
    written.push_back(in(summaryFileName));
    const std::string summary = summaryCsv(outputs.result);
    writeFileAtomically(written.back(), [&](std::ostream& out) { out << summary; });
    if (!outputs.steps || !outputs.cells)
        return written;
    if (outputs.writeSteps) {
        written.push_back(in(stepsFileName));
        writeStepsCsv(written.back(), *outputs.steps, *outputs.cells);
    }
    if (!outputs.tracePath.empty()) {
        written.push_back(outputs.tracePath);
        writeChromeTrace(outputs.tracePath, *outputs.steps, *outputs.cells, &outputs.result);
    }
    return written;
}

} // namespace synctax
