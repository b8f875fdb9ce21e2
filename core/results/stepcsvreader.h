#pragma once

#include "core/config/configerror.h"
#include "core/steps/steplog.h"

#include <optional>
#include <string>
#include <vector>

namespace synctax {

struct StepsCsvLoadResult {
    std::optional<StepLog> steps; // set only when there are no errors; times to the ns as written
    std::vector<ConfigError> errors;
    std::vector<std::string> notes; // what was left out, and why (a last row cut off by a killed run)
};

// Reads steps.csv as StepCsvWriter writes it (docs/results-schema.md), the columns found by the
// header's names: files with collective_wait_ms and files from before it (or of runs that never had
// it) alike; columns it does not know are skipped. The first malformed line is reported by line
// and column name. A last row without its line end was cut off as it was written (the writer ends
// every row; a run killed mid-write leaves one): it is left out, with a note. Never throws on bad input.
StepsCsvLoadResult loadStepsCsvText(const std::string& text, const std::string& sourceName);
StepsCsvLoadResult loadStepsCsvFile(const std::string& path);

} // namespace synctax
