#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"
#include "core/steps/cellplan.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace synctax {

inline constexpr const char* journalSchema = "synctax.journal/1";

// A JSON-lines record of a run as it happens, next to results.json: one line when the run
// starts (the config, the machine, the cells planned), one per measured block, one per group as
// it finishes, one at the end. Each line is flushed, so whatever kills the process, every finished
// block is on disk, and loadResultsFile rebuilds the run's results from them.
class Journal {
public:
    Journal(const std::string& path, const ExperimentConfig& config, const Environment& environment = {},
        const std::vector<CellPlan>& cells = {});
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    void block(const CellKey& cell, int round, int64_t steps, double msPerStep);
    // A group whose rounds ended, analysed, with its cells: it is read back whole.
    void group(const GroupResult& group, const std::vector<CellResult>& cells);
    // Something the user should know about the run, as results.json's notes hold it.
    void note(const std::string& text);
    void end(bool stopped);

private:
    void line(const std::string& json);
    double elapsedS() const;

    std::FILE* m_file = nullptr;
    ExperimentConfig m_config;
    std::chrono::steady_clock::time_point m_start;
};

} // namespace synctax
