#include "core/stepcsvwriter.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace synctax {

StepCsvWriter::StepCsvWriter(const std::string& path, std::vector<CellPlan> cells)
    : m_file(std::fopen(path.c_str(), "w"))
    , m_cells(std::move(cells))
{
    if (!m_file)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    std::fputs("model,mode,style,round,step,start_ms,host_dispatch_us,host_logging_us,gpu_done_ms,lag_ms,queue_steps\n",
        m_file);
}

StepCsvWriter::~StepCsvWriter() { std::fclose(m_file); }

void StepCsvWriter::write(const std::vector<StepRecord>& records)
{
    for (const auto& r : records) {
        if (r.cell >= m_cells.size())
            continue;
        const CellPlan& c = m_cells[r.cell];
        std::fprintf(m_file, "%s,%s,%s,%d,%u,%.6f,%.3f,%.3f,", c.model.c_str(), c.mode.c_str(), c.style.c_str(),
            r.round, r.step, double(r.startNs) * 1e-6, double(r.dispatchedNs - r.startNs) * 1e-3,
            double(r.loggedNs - r.dispatchedNs) * 1e-3);
        if (r.queueSteps >= 0)
            std::fprintf(m_file, "%.6f,%.4f,%d\n", double(r.gpuDoneNs) * 1e-6, double(r.lagMs), r.queueSteps);
        else
            std::fputs(",,\n", m_file);
        ++m_rows;
    }
}

void StepCsvWriter::flush() { std::fflush(m_file); }

} // namespace synctax
