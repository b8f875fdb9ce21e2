#include "runresult.h"

#include "terminal.h"

#include "core/analysis/noiseverdict.h"
#include "core/results/resulttable.h"
#include "core/results/sweeptable.h"
#include "core/text/format.h"

#include <iostream>

namespace synctax {

void printRunTable(const std::string& name, const ExperimentResult& result, const std::string& more)
{
    std::cout << "\n"
              << name << " on " << result.environment.device << " (" << result.environment.deviceName << "), torch "
              << result.environment.torchVersion << ", " << formatDuration(result.durationS) << more << "\n";
    std::cout << formatTable(result, terminalColumns(stdout)) << formatSweepTables(result) << std::flush;
    if (anyTooNoisy(result))
        std::cerr << "synctax-run: too noisy to tell styles apart; no overhead in the table is a finding (its last "
                     "lines say why)\n";
}

int runExitCode(const ExperimentResult& result)
{
    if (result.stopped)
        return 130;
    for (const auto& cell : result.cells) {
        if (!cell.ok)
            return 1;
    }
    return 0;
}

} // namespace synctax
