#pragma once

#include "core/steps/cellplan.h"
#include "core/steps/steprecord.h"

#include <cstdio>
#include <string>
#include <vector>

namespace synctax {

// Which columns a steps.csv has: a data-parallel rank's adds collective_wait_ms at the end; every
// other run's file stays as it always was.
enum class StepCsvColumns { Plain, WithCollectiveWait };

// steps.csv, one row per step (docs/results-schema.md): the header line, and one record's row,
// in the C locale whatever the user's locale. Records of cells not in `cells` have no row.
const char* stepCsvHeader(StepCsvColumns columns = StepCsvColumns::Plain);
std::string stepCsvRow(const StepRecord& record, const CellPlan& cell, StepCsvColumns columns = StepCsvColumns::Plain);

// Writes every record, in the order their steps started, atomically (a temporary file and a
// rename): the same file a run streams, for steps kept elsewhere (the app's history). Throws on
// an I/O error.
void writeStepsCsv(const std::string& path, std::vector<StepRecord> records, const std::vector<CellPlan>& cells);

// Streams step records to steps.csv as they are drained from the ring.
class StepCsvWriter {
public:
    StepCsvWriter(const std::string& path, std::vector<CellPlan> cells, StepCsvColumns columns = StepCsvColumns::Plain);
    ~StepCsvWriter();
    StepCsvWriter(const StepCsvWriter&) = delete;
    StepCsvWriter& operator=(const StepCsvWriter&) = delete;

    void write(const std::vector<StepRecord>& records);
    void flush();
    uint64_t rows() const { return m_rows; }

private:
    std::FILE* m_file = nullptr;
    std::vector<CellPlan> m_cells;
    StepCsvColumns m_columns;
    uint64_t m_rows = 0;
};

} // namespace synctax
