#pragma once

#include "core/files/linetail.h"
#include "core/statistics/statistics.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace synctax {

// One line of a probe folder's steps.jsonl (docs/probe-folder.md).
struct ProbeSync {
    std::string op;
    int site = -1; // its id in sites.json
    int64_t waitNs = 0;
    char phase = 'F'; // 'F', 'B' or 'O'
};

struct ProbeStep {
    int64_t step = 0;
    std::string stage; // warmup, profile, settle, block
    std::optional<int> block;
    std::optional<int> round;
    std::string style; // empty outside blocks
    int64_t tNs = 0; // the step's start, from the probe's attach
    int64_t fNs = 0;
    int64_t bNs = 0;
    int64_t oNs = 0;
    int64_t xNs = 0; // the added loss.item() of an item block
    std::array<int64_t, 3> waitsNs {}; // the loop's sync waits in F, B, O
    std::vector<ProbeSync> syncs;
    std::optional<double> gpuMs;
};

// One line of blocks.jsonl.
struct ProbeBlock {
    int block = 0;
    std::optional<int> round;
    std::string style;
    double tMs = 0;
    int steps = 0;
    double msPerStep = 0;
    double fMs = 0, bMs = 0, oMs = 0;
    double fWaitMs = 0, bWaitMs = 0, oWaitMs = 0;
    double syncsPerStep = 0;
    double addedItemMsPerStep = 0;
    double drainMs = 0;
    std::optional<double> gpuMsMedian;
    int gpuSteps = 0;
    std::optional<double> probeMs; // the probe's own time after each step (median), where written
    // False for a block only counted (no step lines, no phases; the A/B's blocks other than
    // calibration, and without an A/B three blocks of four): its steps, wall time, syncs and GPU.
    bool timed = true;
    int64_t firstStep = -1; // its first step's index (-1: not said)
    int64_t addedItems = 0; // a counted item block's added loss.item() calls
    double waitMsPerStep = 0; // a counted block's sync waits, a step
    // A defer block's line (FILE:LINE); none before --ab defer picked one (its round is left out of
    // the A/B) and in any other block.
    std::optional<std::string> deferredSite;
    int64_t deferred = 0; // a defer block's reads at that line answered late
    int64_t deferredWaited = 0; // and those that waited for their own copy
};

// One entry of sites.json.
struct ProbeSite {
    int id = 0;
    std::string op;
    std::string file;
    int line = 0;
    std::string function;
    // The first frame in the user's own code on the way out (the line the user can change), where
    // the call that syncs is a library's; the same as file:line where it is the user's own.
    std::string userFile;
    int userLine = 0;
    int64_t count = 0;
    double totalWaitMs = 0;
    std::optional<double> medianWaitUs;
    double maxWaitUs = 0;
};

// A paired estimate in percent with its 95% interval (ab.json, end.json).
struct ProbeEstimate {
    double pct = 0;
    double ciLow = 0;
    double ciHigh = 0;
    double stepMs = 0;
    bool significant = false;
};

// end.json, as far as the window needs it.
struct ProbeEnd {
    std::string outcome; // as the probe wrote it (e.g. "ok", "exception", "interrupted")
    std::optional<int> exitCode;
    int64_t steps = 0;
    int64_t stepsWritten = 0;
    int64_t stepsDropped = 0;
    int64_t stepsUntimed = 0; // the counted blocks' steps (no line in steps.jsonl)
    std::optional<double> probeUsPerStep; // the probe's own time after each step (median over blocks)
    std::optional<double> writerUsPerStep; // its writer thread's CPU time, per step
    // The loop as it is after the profiled capture against before it (percent): what the capture
    // left behind; flagged when its interval excludes zero and it is over the probe's limit.
    std::optional<ProbeEstimate> captureAfterEffect;
    bool captureFlagged = false;
    bool captureFasterAfter = false; // the loop ran faster after it: still speeding up before it
    // Slower after it, but by no more than the loop slowed later over as many blocks with no capture
    // between them (its own drift, captureDriftPct): not flagged.
    bool captureWithinDrift = false;
    double captureDriftPct = 0;
    int captureBlocksBefore = 0;
    int captureBlocksAfter = 0;
    std::string captureReason; // why there is no after-effect, where there is none
    std::string captureTeardown; // what became of CUPTI after the capture, in words
};

enum class FollowState {
    Waiting, // no probe.json yet (the job has not started, or this is not a probe folder yet)
    Running, // the files grow
    Stalled, // no growth for FollowOptions::stallS and no end.json
    Ended, // end.json is there
    Crashed, // no end.json, and the job's process is gone (same host) or the last line was cut off
    Deleted, // the folder went away while followed
};
const char* toString(FollowState state);
// Whether the job writes no more: it ended, crashed or its folder went (Waiting, Running and
// Stalled may still grow).
bool isOver(FollowState state);

struct FollowOptions {
    double stallS = 10; // no growth for this long: Stalled
    size_t maxLineBytes = 1 << 20; // a longer line is an error, located
    std::function<double()> nowS; // a steady clock in seconds; empty: std::chrono::steady_clock
};

// probe.json, as far as following the run needs it: whose process writes the folder, and the A/B's
// settings that liveAb() reproduces.
struct ProbeStart {
    std::string script;
    std::string hostname;
    int64_t pid = 0;
    std::string startTime; // with pid, tells one run in the folder from the next
    std::string ab; // --ab as given ("item", "defer", "defer:FILE:LINE"), or empty without an A/B
    std::optional<bool> cudaAvailable; // where probe.json says
    int blockSteps = 0;
    uint64_t seed = 1;
    int resamples = 2000;
};

// A paired estimate the probe measured in the user's own loop (ab.json): a style's step time against
// the loop as it is, in percent, with its bootstrap 95% interval.

// The tax over one window of rounds, in order: how the measured answer moved over the run.
struct ProbeWindow {
    int firstRound = 0;
    int rounds = 0;
    std::optional<ProbeEstimate> item;
};

// How late a deferred line's reads came, in reads or steps (ab.json's defer.deferred.lag_*).
struct ProbeLag {
    int64_t median = 0;
    int64_t max = 0;
};

// ab.json's `defer` (--ab defer): the line whose syncs its defer blocks deferred, those syncs, and
// what became of its reads there. From blocks.jsonl alone (a run without ab.json) only the line and
// its reads late or waited are known.
struct ProbeDefer {
    std::string site; // FILE:LINE, the file relative to the run's working folder where inside it
    bool picked = false; // --ab defer picked it (else --ab defer:FILE:LINE named it)
    std::vector<std::string> ops; // the line's sync ops; empty where not known
    double callsPerStep = 0; // its reads a step over the run, deferred ones included
    std::optional<double> waitMs; // the median wait of a sync there
    std::string refused; // why it deferred nothing; empty where it deferred
    // Its reads in the defer blocks: answered late, waited (a first read, or copies still in flight
    // lagLimitCalls reads on), read as before (too large, or too many a step).
    int64_t calls = 0;
    int64_t late = 0;
    int64_t waited = 0;
    int64_t notDeferred = 0;
    std::optional<ProbeLag> lagCalls;
    std::optional<ProbeLag> lagSteps;
    int lagLimitCalls = 0;
    std::string error; // a copy that failed, which stopped the deferring
    int roundsWithoutLine = 0; // rounds before a line was picked, left out of the estimate
    bool fromBlocks = false; // read from blocks.jsonl: no ops, waits nor lags known
};

// ab.json: the A/B the probe measured at the end of the run.
struct ProbeAb {
    std::string ab; // the style its treatment blocks ran ("item", "defer"); empty: no A/B ran
    std::string reason; // why there is no estimate, where there is none
    int rounds = 0;
    bool roundsBeforeCaptureOnly = false; // the capture left the loop changed: the rounds before it
    int blockSteps = 0; // the steps of its blocks (their median); 0: not said
    std::optional<ProbeEstimate> item; // the A/B's answer
    std::optional<ProbeEstimate> control; // its A/A control: the noise floor
    // The calibration blocks, every step timed, against `none`, where the A/B's other blocks were
    // only counted (ab.json's counted_styles): what the probe's timing costs the loop.
    std::optional<ProbeEstimate> timing;
    std::optional<double> baselineStepMs; // the loop as it is (`none`), ms a step
    bool driftFlagged = false;
    double driftPct = 0;
    // The added style's tax in each half of the rounds; flagged when their intervals do not meet.
    std::optional<ProbeEstimate> taxFirstHalf;
    std::optional<ProbeEstimate> taxSecondHalf;
    bool taxDriftFlagged = false;
    std::vector<ProbeWindow> windows;
    std::optional<ProbeDefer> defer; // with --ab defer
};

// The A/B measured so far, from the complete rounds among the blocks (style `none` the baseline,
// `none_aa` the control, `item` or `defer` the treatment; a round whose defer block deferred no line
// yet left out): the same paired method as the probe's ab.json, so that it narrows as rounds
// complete and agrees with ab.json once the job ends.
struct ProbeLiveAb {
    int rounds = 0;
    std::optional<Interval> item; // percent
    std::optional<Interval> control; // percent
};

// What one poll found since the last: new steps (at most the maxSteps asked for; the rest stay on
// disk for the next poll, so nothing is ever dropped), new blocks, the files re-read because they
// changed, the state, and notes (errors located as file:line:column, said once each).
struct ProbeFollowUpdate {
    std::vector<ProbeStep> steps;
    std::vector<ProbeBlock> blocks;
    std::vector<std::array<double, 3>> phasesMs; // new phases.csv rows (F, B, O, ms)
    std::optional<std::vector<ProbeSite>> sites; // set when sites.json changed
    std::optional<ProbeEnd> end; // set once, when end.json appears
    bool traceAppeared = false; // the profiled capture is complete and can be opened
    std::string tracePath;
    FollowState state = FollowState::Waiting;
    std::vector<std::string> notes;
    bool more = false; // steps are waiting on disk beyond maxSteps: poll again soon
    std::optional<ProbeStart> start; // set when probe.json changed
    std::optional<ProbeLiveAb> abFinal; // set when ab.json changed: the probe's own answer (liveOf)
    std::optional<ProbeAb> abWritten; // ab.json as read, set with abFinal
    // The probe started again in the folder (it clears its files first): what was read before this
    // update belongs to the earlier run.
    bool restarted = false;
};

// Follows a probe's run folder as the job writes it: remembers how far each append-only file was
// read, keeps a partial last line until its newline arrives, re-reads the whole-file JSONs when
// their size or time changes. Reads the disk; call it off the window's thread.
class ProbeFollower {
public:
    explicit ProbeFollower(std::string dir, FollowOptions options = {});
    ProbeFollowUpdate poll(size_t maxSteps = 4096);
    const std::string& dir() const { return m_dir; }
    FollowState state() const { return m_state; }

private:
    std::string path(const char* name) const;
    void note(ProbeFollowUpdate& update, const std::string& text);
    void resetRun(ProbeFollowUpdate& update);
    bool readLines(
        LineTail& tail, const FileStamp& stamp, size_t maxLines, const LineTail::Sink& sink, ProbeFollowUpdate& update);
    std::optional<std::string> readChanged(const char* name, FileStamp& seen, ProbeFollowUpdate& update);
    void readWholeFiles(ProbeFollowUpdate& update);
    std::array<FileStamp, 3> readAppended(ProbeFollowUpdate& update, size_t maxSteps);
    void readTrace(ProbeFollowUpdate& update);
    FollowState nextState(ProbeFollowUpdate& update, bool gone, double now);
    bool jobGone() const;

    std::string m_dir;
    FollowOptions m_options;
    FollowState m_state = FollowState::Waiting;
    bool m_folderSeen = false;
    std::set<std::string> m_said; // notes said once
    LineTail m_steps;
    LineTail m_blocks;
    LineTail m_phases;
    FileStamp m_probeStamp, m_sitesStamp, m_abStamp, m_endStamp, m_traceStamp;
    std::vector<FileStamp> m_growth; // every file's stamp at the last poll
    std::optional<ProbeStart> m_start;
    std::optional<ProbeEnd> m_end; // end.json read; handed out once every line is consumed
    bool m_endHanded = false;
    bool m_blocksStarted = false; // a block line, or a step of a block: the capture was written before
    bool m_traceHanded = false;
    std::optional<double> m_lastGrowthS;
};

// What stands where the probe writes a file, if it is no regular file: "a FIFO", "a folder", "a
// socket", "a device", "not a regular file"; empty for a regular file or nothing there. A FIFO is
// never opened (reading one waits for a writer that never comes).
std::string unlikeAFile(const std::string& path);
// The files of a run folder the probe writes, by name.
extern const char* const kRunFolderFiles[9];

// A block style an A/B's treatment runs (`item`, `defer`): none of `none`, `none_aa`, `calib`.
bool isAbTreatment(const std::string& style);
// The style the A/B's treatment blocks run: the first such block's, else --ab as given up to its
// colon (probe.json's options.ab: "defer:FILE:LINE" runs `defer`), else `item`.
std::string abTreatment(const std::vector<ProbeBlock>& blocks, const std::string& abOption = {});

ProbeLiveAb liveAb(const std::vector<ProbeBlock>& blocks);
// With the probe's --bootstrap and --seed (ProbeStart), where they differ from the defaults.
ProbeLiveAb liveAb(const std::vector<ProbeBlock>& blocks, int resamples, uint64_t seed);
// ab.json's answer as the live view draws it.
ProbeLiveAb liveOf(const ProbeAb& ab);
// The A/B as blocks.jsonl's complete rounds give it, where ab.json is not written yet (a job still
// running, or killed): `live` (liveAb over the same blocks) as a ProbeAb, its block length the last
// block's, and the drift of the loop as it is (`none`, first half of its blocks against the
// second) flagged as the probe flags it; with --ab defer its line and reads (ProbeDefer::fromBlocks).
// Its style as abTreatment gives it (`abOption`: probe.json's options.ab). Empty `ab` where no block
// is an A/B's.
ProbeAb abOfBlocks(const std::vector<ProbeBlock>& blocks, const ProbeLiveAb& live, const std::string& abOption = {});

} // namespace synctax
