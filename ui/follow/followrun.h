#pragma once

#include "core/probe/probefolder.h"
#include "core/probe/probefollow.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// A sync site as the window shows it: what the steps so far waited there, and where it is in the
// user's code once sites.json has named it.
struct FollowSite {
    int id = -1;
    std::string op;
    std::string file; // empty until sites.json names the site
    int line = 0;
    std::string function;
    std::string userFile; // the user's own line that led there, where the site is a library's
    int userLine = 0;
    int64_t count = 0;
    double waitMs = 0;
};

// The measured tax after so many complete A/B rounds: one point of the narrowing interval.
struct FollowAbPoint {
    int rounds = 0;
    std::optional<Interval> item; // percent
    std::optional<Interval> control;
};

// Everything read so far of one followed run, as plain columns the charts draw from and the
// exports write. Lives on the window's thread; only the drain appends to it.
class FollowRun {
public:
    struct Changes {
        bool steps = false;
        bool blocks = false;
        bool phases = false;
        bool sites = false;
        bool ab = false;
        bool end = false;
        bool state = false;
        bool trace = false;
        bool any() const { return steps || blocks || phases || sites || ab || end || state || trace; }
        void merge(const Changes& o);
    };

    // Appends what one poll found, with the A/B measured so far where the worker computed it anew
    // (a bootstrap: too dear for the window's thread; several, in order, where the poll brought
    // several rounds); says what changed. A restart of the probe in the folder forgets the earlier
    // run first.
    Changes apply(ProbeFollowUpdate&& update, const std::vector<ProbeLiveAb>& ab = {});

    size_t stepCount() const { return m_step.size(); }
    int64_t lastStep() const { return m_step.empty() ? -1 : int64_t(m_step.back()); }
    // Steps missing between two that arrived (the probe's dropped records), counted blocks' steps
    // (never written) left out; 0 when every step that has a line is in.
    int64_t missingSteps() const;
    // The steps of the counted blocks read so far (no lines of their own: their blocks' lines say
    // how many); up to `last` where given.
    int64_t countedSteps(int64_t last = -1) const;
    int64_t outOfOrderSteps() const { return m_outOfOrder; }

    // Per step, in arrival order: its number, the host phases without the sync waits kept apart
    // (ms), the GPU's time (-1: unknown), the loop's sync waits and the A/B's added item (ms).
    const std::vector<double>& step() const { return m_step; }
    const std::vector<float>& fMs() const { return m_f; }
    const std::vector<float>& bMs() const { return m_b; }
    const std::vector<float>& oMs() const { return m_o; }
    const std::vector<float>& hostMs() const { return m_host; } // F + B + O
    const std::vector<float>& gpuMs() const { return m_gpu; }
    const std::vector<float>& waitMs() const { return m_wait; }
    const std::vector<float>& addedMs() const { return m_added; }
    const std::vector<int32_t>& block() const { return m_block; } // -1 outside blocks
    const std::string& stageName(size_t i) const { return m_names[m_stage[i]]; }
    const std::string& styleName(size_t i) const { return m_names[m_style[i]]; }

    const std::vector<ProbeBlock>& blocks() const { return m_blocks; }
    // The probe's own time on the loop's thread after each step, over the blocks so far (the
    // median of their medians), against the median step of the blocks that add nothing.
    struct OwnTime {
        double us = 0;
        double stepMs = 0;
    };
    std::optional<OwnTime> probeOwnTime() const;
    const std::vector<std::array<double, 3>>& phasesMs() const { return m_phases; }
    // Each calibration block's first steps so far, F, B, O (ms, the waits taken out), where an A/B
    // runs: ProbeFolder::blockFirstStepsMs, for queueFreePhases.
    std::vector<std::vector<std::array<double, 3>>> blockFirstStepsMs() const;
    // Most wait first; a site sites.json has not named yet has no file.
    std::vector<FollowSite> sites() const;
    const std::vector<FollowAbPoint>& ab() const { return m_ab; }
    bool hasAb() const;
    // The probe's own answer (ab.json), once the job wrote it; and ab.json whole, as read.
    const std::optional<ProbeLiveAb>& abFinal() const { return m_abFinal; }
    const std::optional<ProbeAb>& abWritten() const { return m_abWritten; }
    // The style of the A/B's treatment blocks (`item`, `defer`; abTreatment), where an A/B runs.
    std::string abStyle() const;
    // The line --ab defer's blocks deferred, the latest said (blocks.jsonl); empty where none.
    std::string deferredSite() const;
    // What the A/B's treatment does, as the Follow page's texts name it: "an added loss.item()", or
    // for --ab defer "deferring <line>" ("deferring a line's syncs" until a block names the line).
    std::string abTreatmentText() const;
    // What the A/B measured: "tax of <treatment>", or for --ab defer (a saving) "change from <treatment>".
    std::string abMeasureText() const;
    const std::optional<ProbeStart>& start() const { return m_start; }
    int restarts() const { return m_restarts; }
    const std::optional<ProbeEnd>& end() const { return m_end; }
    FollowState state() const { return m_state; }
    const std::string& tracePath() const { return m_tracePath; }
    const std::vector<std::string>& notes() const { return m_notes; }

    // Medians over the measured steps so far (the stage `block`, else every step): what a
    // comparison of two runs sets side by side.
    struct Summary {
        size_t steps = 0;
        double hostMs = 0;
        double fMs = 0, bMs = 0, oMs = 0;
        std::optional<double> gpuMs;
        double waitMsPerStep = 0; // mean
        double syncsPerStep = 0; // mean
        std::optional<Interval> stepMs; // the calibration (or `none`) blocks' ms per step: mean, 95% interval
    };
    Summary summary() const;

private:
    uint8_t nameIndex(const std::string& name);

    std::vector<double> m_step;
    std::vector<float> m_f, m_b, m_o, m_host, m_gpu, m_wait, m_added;
    std::vector<int32_t> m_block;
    std::vector<uint8_t> m_stage, m_style;
    std::vector<uint16_t> m_syncCount; // the syncs each step listed
    std::vector<std::string> m_names { std::string() };
    int64_t m_missing = 0;
    int64_t m_outOfOrder = 0;
    std::vector<ProbeBlock> m_blocks;
    std::vector<std::array<double, 3>> m_phases;
    BlockFirstSteps m_firstSteps;
    std::vector<FollowSite> m_sites; // by id
    std::vector<ProbeSite> m_named; // sites.json as last read
    std::vector<FollowAbPoint> m_ab;
    std::optional<ProbeLiveAb> m_abFinal;
    std::optional<ProbeAb> m_abWritten;
    std::optional<ProbeStart> m_start;
    int m_restarts = 0;
    std::optional<ProbeEnd> m_end;
    FollowState m_state = FollowState::Waiting;
    std::string m_tracePath;
    std::vector<std::string> m_notes;
};

} // namespace synctax

#include <atomic>

namespace synctax {

// A run folder read as far as it is written now, in one go (a finished run, to compare with): reads
// the disk, so off the window's thread.
FollowRun readRunFolder(const std::string& dir, const std::atomic<bool>& cancel);

} // namespace synctax
