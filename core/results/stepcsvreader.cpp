#include "core/results/stepcsvreader.h"

#include "core/config/inputsource.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace synctax {

namespace {

// The columns read, in the writer's order; collective_wait_ms alone may be missing from the header.
enum Column {
    ColModel,
    ColMode,
    ColStyle,
    ColHostWorkUs,
    ColBatch,
    ColRound,
    ColStep,
    ColStartMs,
    ColHostDispatchUs,
    ColHostLoggingUs,
    ColGpuDoneMs,
    ColLagMs,
    ColQueueSteps,
    ColCollectiveWaitMs,
    columnCount
};

constexpr std::array<std::string_view, columnCount> columnNames { "model", "mode", "style", "host_work_us", "batch",
    "round", "step", "start_ms", "host_dispatch_us", "host_logging_us", "gpu_done_ms", "lag_ms", "queue_steps",
    "collective_wait_ms" };

std::vector<std::string_view> split(std::string_view line)
{
    std::vector<std::string_view> fields;
    size_t from = 0;
    for (;;) {
        const size_t comma = line.find(',', from);
        fields.push_back(line.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
        if (comma == std::string_view::npos)
            return fields;
        from = comma + 1;
    }
}

template <typename T> bool parse(std::string_view text, T& value)
{
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

bool parseMs(std::string_view text, double& value) { return parse(text, value) && std::isfinite(value); }

// A time written with a fixed number of decimals back in nanoseconds: `perUnit` ns per unit.
int64_t toNs(double value, double perUnit) { return std::llround(value * perUnit); }

class Reader {
public:
    explicit Reader(std::string sourceName)
        : m_source(std::move(sourceName))
    {
    }

    bool header(std::string_view line, int lineNo)
    {
        m_at.fill(-1);
        const std::vector<std::string_view> names = split(line);
        m_fields = names.size();
        for (size_t i = 0; i < names.size(); ++i) {
            for (size_t c = 0; c < columnCount; ++c) {
                if (names[i] == columnNames[c] && m_at[c] < 0)
                    m_at[c] = int(i);
            }
        }
        for (size_t c = 0; c < ColCollectiveWaitMs; ++c) {
            if (m_at[c] < 0)
                return fail(lineNo, "the header has no column " + std::string(columnNames[c]) + " (not a steps.csv?)");
        }
        m_steps.hasCollectiveWait = m_at[ColCollectiveWaitMs] >= 0;
        return true;
    }

    bool row(std::string_view line, int lineNo)
    {
        const std::vector<std::string_view> f = split(line);
        if (f.size() != m_fields)
            return fail(lineNo, std::to_string(f.size()) + " fields where the header has " + std::to_string(m_fields));
        const auto field = [&](Column c) { return f[size_t(m_at[c])]; };
        const auto bad = [&](Column c) {
            return fail(lineNo, std::string(columnNames[c]) + ": '" + std::string(field(c)) + "' is not a number");
        };
        CellPlan cell = cellPlan(
            0, { { std::string(field(ColModel)), std::string(field(ColMode)) }, std::string(field(ColStyle)) });
        if (!parse(field(ColHostWorkUs), cell.hostWorkUs))
            return bad(ColHostWorkUs);
        if (!parse(field(ColBatch), cell.batch))
            return bad(ColBatch);
        StepRecord r;
        r.cell = cellIndex(cell);
        double startMs = 0, dispatchUs = 0, loggingUs = 0;
        if (!parse(field(ColRound), r.round))
            return bad(ColRound);
        if (!parse(field(ColStep), r.step))
            return bad(ColStep);
        if (!parseMs(field(ColStartMs), startMs))
            return bad(ColStartMs);
        if (!parseMs(field(ColHostDispatchUs), dispatchUs))
            return bad(ColHostDispatchUs);
        if (!parseMs(field(ColHostLoggingUs), loggingUs))
            return bad(ColHostLoggingUs);
        r.startNs = toNs(startMs, 1e6);
        r.dispatchedNs = r.startNs + toNs(dispatchUs, 1e3);
        r.loggedNs = r.dispatchedNs + toNs(loggingUs, 1e3);
        // The GPU columns are written all three or none.
        if (!field(ColQueueSteps).empty()) {
            double doneMs = 0, lagMs = 0;
            if (!parseMs(field(ColGpuDoneMs), doneMs))
                return bad(ColGpuDoneMs);
            if (!parseMs(field(ColLagMs), lagMs))
                return bad(ColLagMs);
            if (!parse(field(ColQueueSteps), r.queueSteps) || r.queueSteps < 0)
                return bad(ColQueueSteps);
            r.gpuDoneNs = toNs(doneMs, 1e6);
            r.lagMs = float(lagMs);
        }
        if (m_steps.hasCollectiveWait && !field(ColCollectiveWaitMs).empty()) {
            if (!parseMs(field(ColCollectiveWaitMs), r.collectiveWaitMs) || r.collectiveWaitMs < 0)
                return bad(ColCollectiveWaitMs);
        }
        m_steps.records.push_back(r);
        return true;
    }

    StepsCsvLoadResult finish()
    {
        StepsCsvLoadResult result;
        result.errors = std::move(m_errors);
        if (result.errors.empty())
            result.steps = std::move(m_steps);
        return result;
    }

    bool fail(int line, const std::string& message)
    {
        m_errors.push_back({ m_source, line, 0, message });
        return false;
    }

private:
    uint32_t cellIndex(const CellPlan& cell)
    {
        // Rows of one block follow each other: the last cell first.
        const auto same = [&](const CellPlan& c) {
            return c.model == cell.model && c.mode == cell.mode && c.style == cell.style
                && c.hostWorkUs == cell.hostWorkUs && c.batch == cell.batch;
        };
        std::vector<CellPlan>& cells = m_steps.cells;
        if (m_last < cells.size() && same(cells[m_last]))
            return uint32_t(m_last);
        for (m_last = 0; m_last < cells.size(); ++m_last) {
            if (same(cells[m_last]))
                return uint32_t(m_last);
        }
        cells.push_back(cell);
        cells.back().index = uint32_t(m_last);
        return uint32_t(m_last);
    }

    std::string m_source;
    std::array<int, columnCount> m_at {};
    size_t m_fields = 0;
    size_t m_last = 0;
    StepLog m_steps;
    std::vector<ConfigError> m_errors;
};

} // namespace

StepsCsvLoadResult loadStepsCsvText(const std::string& text, const std::string& sourceName)
{
    Reader reader(sourceName);
    std::string_view rest(text);
    int lineNo = 0;
    bool ok = true;
    std::vector<std::string> notes;
    while (ok && !rest.empty()) {
        const size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (lineNo == 1) {
            ok = reader.header(line, lineNo);
        } else if (end == std::string_view::npos && !line.empty()) {
            notes.push_back(sourceName + ":" + std::to_string(lineNo)
                + ": the last row is cut off (no line end: the run ended while writing it): left out");
        } else if (!line.empty()) {
            ok = reader.row(line, lineNo);
        }
    }
    if (lineNo == 0)
        reader.fail(0, "empty: no header line");
    StepsCsvLoadResult result = reader.finish();
    result.notes = std::move(notes);
    return result;
}

StepsCsvLoadResult loadStepsCsvFile(const std::string& path)
{
    return loadFromFile<StepsCsvLoadResult>(path, "a steps.csv file", loadStepsCsvText);
}

} // namespace synctax
