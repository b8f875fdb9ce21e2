#include "core/probe/probefollow.h"

#include "core/probe/probelines.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <limits>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace synctax {

namespace {

// The names probefolder.cpp reads, the compressed one first.
constexpr const char* traceNames[] = { "trace.pt.trace.json.gz", "trace.pt.trace.json" };

double steadyNowS()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string thisHost()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0)
        return {};
    return name;
}

} // namespace

bool isOver(FollowState state)
{
    return state == FollowState::Ended || state == FollowState::Crashed || state == FollowState::Deleted;
}

const char* toString(FollowState state)
{
    switch (state) {
    case FollowState::Waiting:
        return "waiting";
    case FollowState::Running:
        return "running";
    case FollowState::Stalled:
        return "stalled";
    case FollowState::Ended:
        return "ended";
    case FollowState::Crashed:
        return "crashed";
    case FollowState::Deleted:
        return "deleted";
    }
    return "?";
}

ProbeFollower::ProbeFollower(std::string dir, FollowOptions options)
    : m_dir(std::move(dir))
    , m_options(std::move(options))
    , m_steps(path("steps.jsonl"), "steps.jsonl", m_options.maxLineBytes)
    , m_blocks(path("blocks.jsonl"), "blocks.jsonl", m_options.maxLineBytes)
    , m_phases(path("phases.csv"), "phases.csv", m_options.maxLineBytes)
{
    if (!m_options.nowS)
        m_options.nowS = steadyNowS;
}

const char* const kRunFolderFiles[9] = { "probe.json", "steps.jsonl", "blocks.jsonl", "phases.csv", "sites.json",
    "ab.json", "end.json", "trace.pt.trace.json", "trace.pt.trace.json.gz" };

std::string unlikeAFile(const std::string& path)
{
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode))
        return {};
    if (S_ISLNK(st.st_mode)) { // a link to a regular file is one
        if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode))
            return {};
    }
    if (S_ISFIFO(st.st_mode))
        return "a FIFO";
    if (S_ISDIR(st.st_mode))
        return "a folder";
    if (S_ISSOCK(st.st_mode))
        return "a socket";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return "a device";
    return "not a regular file";
}

std::string ProbeFollower::path(const char* name) const { return m_dir + "/" + name; }

void ProbeFollower::note(ProbeFollowUpdate& update, const std::string& text)
{
    if (m_said.insert(text).second)
        update.notes.push_back(text);
}

namespace {

bool isDirectory(const std::string& path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

// Everything read of the run before: a probe that starts again clears its files.
void ProbeFollower::resetRun(ProbeFollowUpdate& update)
{
    for (LineTail* tail : { &m_steps, &m_blocks, &m_phases })
        tail->reset();
    note(update, "probe.json: another run started in the folder; its files are read from their start");
    m_said.clear();
    m_end.reset();
    m_endHanded = false;
    m_blocksStarted = false;
    m_traceHanded = false;
    m_traceStamp = {};
    m_sitesStamp = {};
    m_abStamp = {};
    m_endStamp = {};
    update.restarted = true;
}

bool ProbeFollower::readLines(
    LineTail& tail, const FileStamp& stamp, size_t maxLines, const LineTail::Sink& sink, ProbeFollowUpdate& update)
{
    std::vector<std::string> notes;
    const LineTail::Read read = tail.read(stamp, maxLines, sink, notes);
    for (const std::string& text : notes)
        note(update, text);
    update.restarted = update.restarted || read.restarted;
    return read.more;
}

// The whole file when it changed since `seen` (and `seen` updated); nothing when it did not, or
// could not be read (tried again next poll).
std::optional<std::string> ProbeFollower::readChanged(const char* name, FileStamp& seen, ProbeFollowUpdate& update)
{
    const FileStamp now = FileStamp::of(path(name));
    if (!now.exists) {
        seen = now;
        return std::nullopt;
    }
    if (now == seen)
        return std::nullopt;
    std::ifstream in(path(name), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        note(update, std::string(name) + ": cannot be read; tried again at the next poll");
        return std::nullopt;
    }
    seen = now;
    return text.str();
}

void ProbeFollower::readWholeFiles(ProbeFollowUpdate& update)
{
    // A file that does not parse is read again next time: its stamp is forgotten.
    const auto parse = [&](const char* name, FileStamp& stamp, auto parser, auto use) {
        const auto text = readChanged(name, stamp, update);
        if (!text)
            return;
        ConfigError error;
        error.file = name;
        if (auto value = parser(*text, error)) {
            use(std::move(*value));
        } else {
            stamp = {};
            note(update, error.format() + " (read again at the next poll)");
        }
    };
    parse("sites.json", m_sitesStamp, parseProbeSites, [&](std::vector<ProbeSite> s) { update.sites = std::move(s); });
    parse("ab.json", m_abStamp, parseProbeAb, [&](ProbeAb ab) {
        update.abFinal = liveOf(ab);
        update.abWritten = std::move(ab);
    });
    if (!FileStamp::of(path("end.json")).exists) {
        m_end.reset();
        m_endHanded = false;
        m_endStamp = {};
    }
    parse("end.json", m_endStamp, parseProbeEnd, [&](ProbeEnd e) { m_end = std::move(e); });
}

void ProbeFollower::readTrace(ProbeFollowUpdate& update)
{
    for (const char* name : traceNames) {
        const FileStamp stamp = FileStamp::of(path(name));
        if (!stamp.exists)
            continue;
        // The probe writes the capture in place: it is whole once its size held over one poll, or
        // once the steps after the capture (blocks, the end) are being written.
        const bool whole = stamp.size > 0 && (stamp == m_traceStamp || m_blocksStarted || m_end.has_value());
        m_traceStamp = stamp;
        if (whole && !m_traceHanded) {
            m_traceHanded = true;
            update.traceAppeared = true;
            update.tracePath = path(name);
        }
        return;
    }
    m_traceStamp = {};
    m_traceHanded = false;
}

bool ProbeFollower::jobGone() const
{
    if (!m_start || m_start->pid <= 0 || m_start->hostname.empty() || m_start->hostname != thisHost())
        return false;
    return ::kill(static_cast<pid_t>(m_start->pid), 0) != 0 && errno == ESRCH;
}

// steps.jsonl (at most maxSteps lines), blocks.jsonl and phases.csv: what was appended since the
// last poll. Returns the three files' stamps as read.
std::array<FileStamp, 3> ProbeFollower::readAppended(ProbeFollowUpdate& update, size_t maxSteps)
{
    const FileStamp stepsStamp = FileStamp::of(path("steps.jsonl"));
    const FileStamp blocksStamp = FileStamp::of(path("blocks.jsonl"));
    const FileStamp phasesStamp = FileStamp::of(path("phases.csv"));
    update.more = readLines(
        m_steps, stepsStamp, maxSteps,
        [&](const std::string& line, int64_t number) {
            ConfigError error;
            if (auto step = parseProbeStep(line, error)) {
                m_blocksStarted = m_blocksStarted || step->stage == "block";
                update.steps.push_back(std::move(*step));
            } else {
                error.file = m_steps.name();
                error.line = static_cast<int>(number);
                note(update, error.format());
            }
        },
        update);
    constexpr size_t all = std::numeric_limits<size_t>::max();
    readLines(
        m_blocks, blocksStamp, all,
        [&](const std::string& line, int64_t number) {
            ConfigError error;
            if (auto block = parseProbeBlock(line, error)) {
                m_blocksStarted = true;
                update.blocks.push_back(std::move(*block));
            } else {
                error.file = m_blocks.name();
                error.line = static_cast<int>(number);
                note(update, error.format());
            }
        },
        update);
    readLines(
        m_phases, phasesStamp, all,
        [&](const std::string& line, int64_t number) {
            ConfigError error;
            if (auto row = parseProbePhasesRow(line, error)) {
                update.phasesMs.push_back(*row);
            } else if (!error.message.empty()) {
                error.file = m_phases.name();
                error.line = static_cast<int>(number);
                note(update, error.format());
            }
        },
        update);
    return { stepsStamp, blocksStamp, phasesStamp };
}

FollowState ProbeFollower::nextState(ProbeFollowUpdate& update, bool gone, double now)
{
    FollowState state = FollowState::Running;
    if (m_end) {
        // The last steps are handed out before the end: Ended once every complete line is read.
        state = update.more ? FollowState::Running : FollowState::Ended;
        if (state == FollowState::Ended && !m_endHanded) {
            m_endHanded = true;
            update.end = m_end;
        }
    } else if (gone) {
        state = update.more ? FollowState::Running : FollowState::Crashed;
        if (state == FollowState::Crashed) {
            note(update,
                "the job (pid " + std::to_string(m_start->pid) + " on " + m_start->hostname
                    + ") is gone and wrote no end.json: it crashed or was killed");
            if (m_steps.cutOff()) {
                note(update,
                    m_steps.name() + ": the last line is cut off at byte " + std::to_string(m_steps.offset())
                        + " (the job stopped mid-write)");
            }
        }
    } else {
        state = now - *m_lastGrowthS >= m_options.stallS ? FollowState::Stalled : FollowState::Running;
    }
    return state;
}

ProbeFollowUpdate ProbeFollower::poll(size_t maxSteps)
{
    ProbeFollowUpdate update;
    const double now = m_options.nowS();
    if (!isDirectory(m_dir)) {
        if (m_folderSeen) {
            m_state = FollowState::Deleted;
            note(update, m_dir + ": the folder is gone; what was read from it is kept");
        }
        update.state = m_state;
        return update;
    }
    m_folderSeen = true;
    for (const char* name : kRunFolderFiles) {
        if (const std::string what = unlikeAFile(path(name)); !what.empty())
            note(update, std::string(name) + ": " + what + " where the probe writes a file; not read");
    }

    // probe.json first: without it nothing else belongs to a run yet.
    const auto probeText = readChanged("probe.json", m_probeStamp, update);
    if (probeText) {
        ConfigError error;
        error.file = "probe.json";
        if (auto start = parseProbeStart(*probeText, error)) {
            if (m_start && (m_start->pid != start->pid || m_start->startTime != start->startTime))
                resetRun(update);
            m_start = start;
            update.start = std::move(start);
        } else {
            m_probeStamp = {};
            note(update, error.format() + " (read again at the next poll)");
        }
    }
    if (!m_probeStamp.exists || !m_start) {
        m_state = FollowState::Waiting;
        update.state = m_state;
        return update;
    }

    // Whether the job is gone is asked before end.json is looked for: the probe writes end.json
    // before its process exits, so a job found gone and no end.json after it did not end cleanly.
    const bool gone = jobGone();
    readWholeFiles(update);

    const std::array<FileStamp, 3> appended = readAppended(update, maxSteps);
    readTrace(update);

    // Growth is the job's: not sites.json, which the probe rewrites every few seconds whatever the
    // loop does, so that a job stuck in a step reads as stalled.
    const std::vector<FileStamp> growth = { m_probeStamp, appended[0], appended[1], appended[2], m_abStamp,
        FileStamp::of(path("end.json")), m_traceStamp };
    if (growth != m_growth || !m_lastGrowthS) {
        m_growth = growth;
        m_lastGrowthS = now;
    }

    m_state = nextState(update, gone, now);
    update.state = m_state;
    return update;
}

} // namespace synctax
