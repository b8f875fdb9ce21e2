#include "core/results/journal.h"

#include "core/results/resultsjson.h"
#include "core/text/format.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace synctax {

Journal::Journal(const std::string& path, const ExperimentConfig& config, const Environment& environment,
    const std::vector<CellPlan>& cells)
    : m_file(std::fopen(path.c_str(), "w"))
    , m_config(config)
    , m_start(std::chrono::steady_clock::now())
{
    if (!m_file)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    // The environment as results.json writes it, so that the results reader reads it back.
    ExperimentResult run;
    run.environment = environment;
    const nlohmann::json written = toJson(run);
    nlohmann::json planned = nlohmann::json::array();
    for (const CellPlan& cell : cells) {
        planned.push_back({ { "model", cell.model }, { "mode", cell.mode }, { "style", cell.style },
            { "host_work_us", cell.hostWorkUs }, { "batch", cell.batch } });
    }
    line(nlohmann::json { { "type", "start" }, { "schema", journalSchema }, { "config", toJson(config) },
        { "environment", written["environment"] },
        { "started_at", formatTimestamp(std::chrono::system_clock::now(), TimestampStyle::Iso8601Utc) },
        { "cells", planned } }
             .dump());
}

Journal::~Journal() { std::fclose(m_file); }

double Journal::elapsedS() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void Journal::block(const CellKey& cell, int round, int64_t steps, double msPerStep)
{
    line(nlohmann::json { { "type", "block" }, { "model", cell.model }, { "mode", cell.mode }, { "style", cell.style },
        { "host_work_us", cell.hostWorkUs }, { "batch", cell.batch }, { "round", round }, { "steps", steps },
        { "ms_per_step", msPerStep }, { "t_s", elapsedS() } }
             .dump());
}

void Journal::group(const GroupResult& group, const std::vector<CellResult>& cells)
{
    // The group and its cells as results.json writes them: one reader for both.
    ExperimentResult run;
    run.config = m_config;
    run.cells = cells;
    run.groups = { group };
    const nlohmann::json written = toJson(run);
    line(nlohmann::json {
        { "type", "group" }, { "group", written["groups"][0] }, { "cells", written["cells"] }, { "t_s", elapsedS() } }
             .dump());
}

void Journal::note(const std::string& text)
{
    line(nlohmann::json { { "type", "note" }, { "text", text }, { "t_s", elapsedS() } }.dump());
}

void Journal::end(bool stopped)
{
    line(nlohmann::json { { "type", "end" }, { "stopped", stopped }, { "t_s", elapsedS() } }.dump());
}

void Journal::line(const std::string& json)
{
    std::fputs(json.c_str(), m_file);
    std::fputc('\n', m_file);
    std::fflush(m_file);
}

} // namespace synctax
