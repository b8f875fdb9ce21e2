#include "core/results/journalreader.h"

#include "core/results/journal.h"
#include "core/results/resultsjson.h"

#include "core/analysis/liveresults.h"
#include "core/config/inputsource.h"
#include "core/queuemodel/regime.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>

namespace synctax {

namespace {

using nlohmann::json;

// "1 group", "3 groups".
std::string counted(size_t n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

struct FinishedGroup {
    GroupResult group;
    std::vector<CellResult> cells;
};

struct Block {
    CellKey cell;
    int round = 0;
    double msPerStep = 0;
};

// Reads the lines in order, each checked where it is, into what LiveResults rebuilds a run from.
class JournalRebuild {
public:
    JournalRebuild(std::string source, std::vector<ConfigError>& errors)
        : m_source(std::move(source))
        , m_errors(errors)
    {
    }

    void read(const std::string& text)
    {
        size_t from = 0;
        int lineNo = 0;
        while (from < text.size() && m_errors.empty()) {
            const size_t end = text.find('\n', from);
            const bool ended = end != std::string::npos;
            const std::string_view line(text.data() + from, (ended ? end : text.size()) - from);
            from = ended ? end + 1 : text.size();
            ++lineNo;
            if (line.find_first_not_of(" \t\r") == std::string_view::npos)
                continue;
            json record;
            try {
                record = json::parse(line.begin(), line.end());
            } catch (const json::exception& e) {
                // The writer ends every line it finished: one without its end was cut off mid-write.
                if (!ended && m_started) {
                    m_notes.push_back(m_source + ":" + std::to_string(lineNo)
                        + ": the last line is cut off (the run ended while writing it): left out");
                    break;
                }
                notJson(lineNo, e);
                break;
            }
            readLine(lineNo, record);
        }
        if (m_errors.empty() && !m_started)
            fail(0, "empty: no start line; expected a synctax-run journal.jsonl");
    }

    ResultsLoadResult rebuild(const OutputLock::State& lock)
    {
        ResultsLoadResult out;
        LiveResults live;
        live.reset(m_base.config, m_plans, m_base.environment);
        for (const Block& b : m_blocks)
            live.addBlock(uint32_t(planIndex(b.cell)), b.round, b.msPerStep);
        for (const FinishedGroup& f : m_finished)
            live.finishGroup(f.group, f.cells);
        ExperimentResult r = live.snapshot();
        const bool running = lock.kind == OutputLock::State::Kind::Held;
        const bool onCpu = m_base.environment.device == "cpu";
        int cutShort = 0;
        for (GroupResult& g : r.groups) {
            if (g.stopReason != "running")
                continue;
            ++cutShort;
            g.stopReason = running ? "running" : "killed";
            g.regime.reason = onCpu ? noQueueOnCpu : "the group was cut short before its queue was probed";
            g.clocks.reason = "the group was cut short";
        }
        // Groups that never measured a block did not run: the runner's own results leave them out.
        r.cells.erase(std::remove_if(r.cells.begin(), r.cells.end(),
                          [&](const CellResult& c) {
                              return std::none_of(r.groups.begin(), r.groups.end(),
                                  [&](const GroupResult& g) { return sameGroup(g, c); });
                          }),
            r.cells.end());
        r.startedAt = m_base.startedAt;
        r.durationS = m_lastS;
        r.stopped = m_ended ? m_endStopped : true;
        r.notes = m_base.notes;
        r.notes.push_back(summary(int(m_finished.size()), cutShort, lock));
        r.notes.insert(r.notes.end(), m_notes.begin(), m_notes.end());
        out.result = std::move(r);
        return out;
    }

private:
    std::string summary(int finished, int cutShort, const OutputLock::State& lock) const
    {
        std::string text = "rebuilt from " + m_source + ": "
            + (m_ended ? std::string("the run ended, but its results.json is missing")
                       : std::string("the run wrote no results.json"))
            + "; " + counted(m_blocks.size(), "block") + " kept, " + counted(size_t(finished), "group")
            + " finished whole";
        if (cutShort > 0)
            text += ", " + std::to_string(cutShort)
                + " cut short (analysed from their blocks alone: no queue, regime or prediction)";
        if (const std::string held = OutputLock::describe(lock); !held.empty())
            text
                += "; " + held + (lock.kind == OutputLock::State::Kind::Stale ? ": the run was killed or crashed" : "");
        else if (!m_ended)
            text += "; no run holds its folder";
        return text;
    }

    void fail(int line, const std::string& message)
    {
        m_errors.push_back({ m_source, line, line > 0 ? 1 : 0, message });
    }

    void notJson(int line, const json::exception& e)
    {
        std::string message = e.what();
        const auto cut = message.find("syntax error");
        int column = 1;
        if (const auto* parse = dynamic_cast<const json::parse_error*>(&e))
            column = std::max<int>(1, int(parse->byte));
        m_errors.push_back({ m_source, line, column,
            "not valid JSON: " + (cut == std::string::npos ? message : message.substr(cut)) });
    }

    // The parts of a results.json that a line holds, checked by the results reader; its errors
    // are the line's.
    std::optional<ExperimentResult> readAsResults(int line, const json& document)
    {
        const ResultsLoadResult read = loadResultsJson(document, m_source);
        for (ConfigError e : read.errors) {
            e.line = line;
            e.column = 1;
            m_errors.push_back(e);
        }
        return read.result;
    }

    json document(json cells, json groups) const
    {
        return { { "schema", resultsSchema }, { "started_at", m_startedAt }, { "duration_s", 0 }, { "stopped", true },
            { "environment", m_environment }, { "config", m_config }, { "cells", cells }, { "groups", groups } };
    }

    void readLine(int line, const json& record)
    {
        const auto type = record.is_object() ? record.find("type") : record.end();
        if (!record.is_object() || type == record.end() || !type->is_string()) {
            fail(line, "expected an object with a \"type\" (start, block, group or end)");
            return;
        }
        const std::string kind = type->get<std::string>();
        if (!m_started && kind != "start") {
            fail(line, "expected the journal's start line (\"type\": \"start\"), found \"" + kind + "\"");
            return;
        }
        if (const auto t = record.find("t_s"); t != record.end() && t->is_number() && std::isfinite(t->get<double>()))
            m_lastS = std::max(m_lastS, t->get<double>());
        if (kind == "start")
            start(line, record);
        else if (kind == "block")
            block(line, record);
        else if (kind == "group")
            group(line, record);
        else if (kind == "end")
            end(record);
        else if (const auto note = record.find("text"); kind == "note" && note != record.end() && note->is_string())
            m_base.notes.push_back(note->get<std::string>());
        // Kinds a later version adds are left to it, as results.json's unknown keys are.
    }

    void start(int line, const json& record)
    {
        if (m_started) {
            fail(line, "a second start line; expected one per journal");
            return;
        }
        m_started = true;
        const auto schema = record.find("schema");
        if (schema == record.end() || !schema->is_string() || schema->get<std::string>() != journalSchema) {
            fail(line, std::string("expected \"schema\": \"") + journalSchema + "\"");
            return;
        }
        const auto config = record.find("config");
        if (config == record.end() || !config->is_object()) {
            fail(line, "expected the run's \"config\", an object");
            return;
        }
        m_config = *config;
        // Journals from before the machine was kept name only the config's device.
        m_environment = record.value("environment",
            json { { "synctax_version", "" }, { "torch_version", "" }, { "device", m_config.value("device", "") },
                { "device_name", "" }, { "cpu", "" }, { "host", "" } });
        m_startedAt = record.value("started_at", "");
        const std::optional<ExperimentResult> base = readAsResults(line, document(json::array(), json::array()));
        if (!base)
            return;
        m_base = *base;
        if (const auto cells = record.find("cells"); cells != record.end()) {
            for (size_t i = 0; cells->is_array() && i < cells->size(); ++i) {
                const std::optional<CellKey> key = cellKey(line, (*cells)[i], "cells/" + std::to_string(i) + "/");
                if (!key)
                    return;
                m_plans.push_back(cellPlan(uint32_t(m_plans.size()), *key));
            }
            m_planned = cells->is_array();
        }
    }

    // A cell's model, mode and style, and its host work and batch (the config's where not written).
    std::optional<CellKey> cellKey(int line, const json& j, const std::string& where)
    {
        CellKey key;
        for (auto [name, field] :
            { std::pair { "model", &key.model }, { "mode", &key.mode }, { "style", &key.style } }) {
            const auto it = j.is_object() ? j.find(name) : j.end();
            if (!j.is_object() || it == j.end() || !it->is_string()) {
                fail(line, where + name + ": expected a string");
                return std::nullopt;
            }
            *field = it->get<std::string>();
        }
        const ExperimentConfig& config = m_base.config;
        const auto model = std::find_if(
            config.models.begin(), config.models.end(), [&](const ModelSpec& m) { return m.name == key.model; });
        key.hostWorkUs = model != config.models.end() ? config.hostWorkUsFor(*model) : config.hostWorkUs;
        key.batch = model != config.models.end() ? model->batch : 0;
        for (auto [name, field] : { std::pair { "host_work_us", &key.hostWorkUs }, { "batch", &key.batch } }) {
            const auto it = j.find(name);
            if (it == j.end())
                continue;
            if (!it->is_number_integer() || it->get<int64_t>() < 0) {
                fail(line, where + name + ": expected a whole number of 0 or more");
                return std::nullopt;
            }
            *field = it->get<int64_t>();
        }
        return key;
    }

    size_t planIndex(const CellKey& key) const
    {
        return size_t(std::find_if(m_plans.begin(), m_plans.end(), [&](const CellPlan& p) { return p.key() == key; })
            - m_plans.begin());
    }

    void block(int line, const json& record)
    {
        const std::optional<CellKey> key = cellKey(line, record, "");
        if (!key)
            return;
        Block b { *key };
        const auto round = record.find("round");
        if (round == record.end() || !round->is_number_integer() || round->get<int64_t>() < 0
            || round->get<int64_t>() > 100'000'000) {
            fail(line, "round: expected a round number (0 or more)");
            return;
        }
        b.round = int(round->get<int64_t>());
        const auto ms = record.find("ms_per_step");
        if (ms == record.end() || !ms->is_number() || !(ms->get<double>() > 0) || !std::isfinite(ms->get<double>())) {
            fail(line, "ms_per_step: expected a positive number");
            return;
        }
        b.msPerStep = ms->get<double>();
        if (planIndex(b.cell) == m_plans.size()) {
            if (m_planned) {
                fail(line,
                    "a block of " + b.cell.model + "/" + b.cell.mode + "/" + b.cell.style
                        + ", a cell the start line does not plan");
                return;
            }
            m_plans.push_back(cellPlan(uint32_t(m_plans.size()), b.cell)); // older journals list no cells
        }
        m_blocks.push_back(b);
    }

    void group(int line, const json& record)
    {
        const auto group = record.find("group");
        const auto cells = record.find("cells");
        if (group == record.end() || cells == record.end()) {
            fail(line, "expected a \"group\" and its \"cells\"");
            return;
        }
        const std::optional<ExperimentResult> read = readAsResults(line, document(*cells, json::array({ *group })));
        if (!read)
            return;
        if (read->groups.size() != 1) {
            fail(line, "expected one group");
            return;
        }
        for (const CellResult& c : read->cells) {
            if (planIndex(c.key()) == m_plans.size())
                m_plans.push_back(cellPlan(uint32_t(m_plans.size()), c.key()));
        }
        m_finished.push_back({ read->groups.front(), read->cells });
    }

    void end(const json& record)
    {
        m_ended = true;
        const auto stopped = record.find("stopped");
        m_endStopped = stopped != record.end() && stopped->is_boolean() && stopped->get<bool>();
    }

    std::string m_source;
    std::vector<ConfigError>& m_errors;
    bool m_started = false;
    json m_config;
    json m_environment;
    std::string m_startedAt;
    ExperimentResult m_base;
    std::vector<CellPlan> m_plans;
    bool m_planned = false; // the start line listed the cells
    std::vector<Block> m_blocks;
    std::vector<FinishedGroup> m_finished;
    bool m_ended = false;
    bool m_endStopped = false;
    double m_lastS = 0;
    std::vector<std::string> m_notes;
};

} // namespace

bool startsAJournal(const std::string& text)
{
    const std::string_view first(text.data(), std::min(text.find('\n'), text.size()));
    const json line = json::parse(first.begin(), first.end(), nullptr, false);
    if (!line.is_object())
        return false;
    const auto type = line.find("type");
    const auto schema = line.find("schema");
    return type != line.end() && *type == "start" && schema != line.end() && schema->is_string()
        && schema->get<std::string>().rfind("synctax.journal/", 0) == 0;
}

ResultsLoadResult loadJournalText(const std::string& text, const std::string& sourceName, const OutputLock::State& lock)
{
    ResultsLoadResult out;
    JournalRebuild rebuild(sourceName, out.errors);
    rebuild.read(text);
    if (!out.errors.empty())
        return out;
    return rebuild.rebuild(lock);
}

ResultsLoadResult loadJournalFile(const std::string& path)
{
    ResultsLoadResult out;
    const std::optional<std::string> text = readInputFile(path, "a journal.jsonl file", out.errors);
    if (!text)
        return out;
    return loadJournalText(*text, path, OutputLock::inspect(std::filesystem::path(path).parent_path().string()));
}

} // namespace synctax
