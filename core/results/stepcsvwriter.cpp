#include "core/results/stepcsvwriter.h"

#include "core/results/resultsjson.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace synctax {

const char* stepCsvHeader(StepCsvColumns columns)
{
    if (columns == StepCsvColumns::WithCollectiveWait)
        return "model,mode,style,host_work_us,batch,round,step,start_ms,host_dispatch_us,host_logging_us,gpu_done_ms,"
               "lag_ms,queue_steps,collective_wait_ms\n";
    return "model,mode,style,host_work_us,batch,round,step,start_ms,host_dispatch_us,host_logging_us,gpu_done_ms,lag_"
           "ms,queue_steps\n";
}

namespace {

// Locale-independent: Qt applications call setlocale(LC_ALL, ""), and printf's %f would then write
// a decimal comma in many locales.
void appendFixed(std::string& out, double value, int precision)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, precision);
    out.append(buf, r.ptr);
}

} // namespace

std::string stepCsvRow(const StepRecord& r, const CellPlan& c, StepCsvColumns columns)
{
    std::string row = c.model + ',' + c.mode + ',' + c.style + ',' + std::to_string(c.hostWorkUs) + ','
        + std::to_string(c.batch) + ',' + std::to_string(r.round) + ',' + std::to_string(r.step) + ',';
    appendFixed(row, double(r.startNs) * 1e-6, 6);
    row += ',';
    appendFixed(row, double(r.dispatchedNs - r.startNs) * 1e-3, 3);
    row += ',';
    appendFixed(row, double(r.loggedNs - r.dispatchedNs) * 1e-3, 3);
    row += ',';
    if (r.queueSteps >= 0) {
        appendFixed(row, double(r.gpuDoneNs) * 1e-6, 6);
        row += ',';
        appendFixed(row, double(r.lagMs), 4);
        row += ',' + std::to_string(r.queueSteps);
    } else {
        row += ",,"; // no GPU: gpu_done_ms, lag_ms and queue_steps are empty
    }
    if (columns == StepCsvColumns::WithCollectiveWait) {
        row += ',';
        // Nanoseconds, as measured: the per-cell statistics in results.json are of these numbers.
        if (r.collectiveWaitMs >= 0)
            appendFixed(row, r.collectiveWaitMs, 6);
    }
    row += '\n';
    return row;
}

void writeStepsCsv(const std::string& path, std::vector<StepRecord> records, const std::vector<CellPlan>& cells)
{
    std::stable_sort(
        records.begin(), records.end(), [](const StepRecord& a, const StepRecord& b) { return a.startNs < b.startNs; });
    writeFileAtomically(path, [&](std::ostream& out) {
        out << stepCsvHeader();
        for (const StepRecord& r : records) {
            if (r.cell < cells.size())
                out << stepCsvRow(r, cells[r.cell]);
        }
    });
}

StepCsvWriter::StepCsvWriter(const std::string& path, std::vector<CellPlan> cells, StepCsvColumns columns)
    : m_file(std::fopen(path.c_str(), "w"))
    , m_cells(std::move(cells))
    , m_columns(columns)
{
    if (!m_file)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    std::fputs(stepCsvHeader(columns), m_file);
}

StepCsvWriter::~StepCsvWriter() { std::fclose(m_file); }

void StepCsvWriter::write(const std::vector<StepRecord>& records)
{
    for (const auto& r : records) {
        if (r.cell >= m_cells.size())
            continue;
        std::fputs(stepCsvRow(r, m_cells[r.cell], m_columns).c_str(), m_file);
        ++m_rows;
    }
}

void StepCsvWriter::flush() { std::fflush(m_file); }

} // namespace synctax
