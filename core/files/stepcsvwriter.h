#pragma once

#include "core/steps/cellplan.h"
#include "core/steps/steprecord.h"

#include <cstdio>
#include <string>
#include <vector>

namespace synctax {

// steps.csv, one row per step (docs/results-schema.md): the header line, and one record's row,
// in the C locale whatever the user's locale. Records of cells not in `cells` have no row.
const char* stepCsvHeader();
std::string stepCsvRow(const StepRecord& record, const CellPlan& cell);

// Writes every record, in the order their steps started, atomically (a temporary file and a
// rename): the same file a run streams, for steps kept elsewhere (the app's history). Throws on
// an I/O error.
void writeStepsCsv(const std::string& path, std::vector<StepRecord> records, const std::vector<CellPlan>& cells);

// Streams step records to steps.csv as they are drained from the ring.
class StepCsvWriter {
public:
    StepCsvWriter(const std::string& path, std::vector<CellPlan> cells);
    ~StepCsvWriter();
    StepCsvWriter(const StepCsvWriter&) = delete;
    StepCsvWriter& operator=(const StepCsvWriter&) = delete;

    void write(const std::vector<StepRecord>& records);
    void flush();
    uint64_t rows() const { return m_rows; }

private:
    std::FILE* m_file = nullptr;
    std::vector<CellPlan> m_cells;
    uint64_t m_rows = 0;
};

} // namespace synctax
