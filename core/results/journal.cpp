#include "core/results/journal.h"

#include "core/results/resultsjson.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace synctax {

Journal::Journal(const std::string& path, const ExperimentConfig& config)
    : m_file(std::fopen(path.c_str(), "w"))
{
    if (!m_file)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    line(
        nlohmann::json { { "type", "start" }, { "schema", "synctax.journal/1" }, { "config", toJson(config) } }.dump());
}

Journal::~Journal() { std::fclose(m_file); }

void Journal::block(const std::string& model, const std::string& mode, const std::string& style, int round,
    int64_t steps, double msPerStep)
{
    line(nlohmann::json { { "type", "block" }, { "model", model }, { "mode", mode }, { "style", style },
        { "round", round }, { "steps", steps }, { "ms_per_step", msPerStep } }
             .dump());
}

void Journal::end(bool stopped) { line(nlohmann::json { { "type", "end" }, { "stopped", stopped } }.dump()); }

void Journal::line(const std::string& json)
{
    std::fputs(json.c_str(), m_file);
    std::fputc('\n', m_file);
    std::fflush(m_file);
}

} // namespace synctax
