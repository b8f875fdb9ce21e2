#pragma once

#include "core/config/experimentconfig.h"

#include <cstdio>
#include <string>

namespace synctax {

// A JSON-lines record of a run as it happens, next to results.json: one line when the run
// starts, one per measured block, one at the end. Each line is flushed, so whatever kills the
// process, every finished block is on disk.
class Journal {
public:
    Journal(const std::string& path, const ExperimentConfig& config);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    void block(const std::string& model, const std::string& mode, const std::string& style, int round, int64_t steps,
        double msPerStep);
    void end(bool stopped);

private:
    void line(const std::string& json);

    std::FILE* m_file = nullptr;
};

} // namespace synctax
