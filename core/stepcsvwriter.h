#pragma once

#include "core/experimentrunner.h"
#include "core/steprecord.h"

#include <cstdio>
#include <string>
#include <vector>

namespace synctax {

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
