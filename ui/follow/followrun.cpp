#include "ui/follow/followrun.h"

#include "core/statistics/statistics.h"

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

float ms(int64_t ns) { return float(double(ns) * 1e-6); }

double medianOf(const std::vector<float>& values, size_t from, bool skipNegative)
{
    std::vector<double> kept;
    kept.reserve(values.size() - std::min(from, values.size()));
    for (size_t i = from; i < values.size(); ++i) {
        if (!skipNegative || values[i] >= 0)
            kept.push_back(values[i]);
    }
    return kept.empty() ? -1 : median(kept);
}

} // namespace

void FollowRun::Changes::merge(const Changes& o)
{
    steps = steps || o.steps;
    blocks = blocks || o.blocks;
    phases = phases || o.phases;
    sites = sites || o.sites;
    ab = ab || o.ab;
    end = end || o.end;
    state = state || o.state;
    trace = trace || o.trace;
}

uint8_t FollowRun::nameIndex(const std::string& name)
{
    // A handful of stages and styles: a linear look-up beats a map, and a byte per step is enough.
    for (size_t i = 0; i < m_names.size(); ++i) {
        if (m_names[i] == name)
            return uint8_t(i);
    }
    if (m_names.size() >= 255)
        return 0;
    m_names.push_back(name);
    return uint8_t(m_names.size() - 1);
}

FollowRun::Changes FollowRun::apply(ProbeFollowUpdate&& update, const std::vector<ProbeLiveAb>& ab)
{
    Changes changes;
    if (update.restarted) {
        const int restarts = m_restarts + 1;
        *this = FollowRun {};
        m_restarts = restarts;
        changes = Changes { true, true, true, true, true, true, true, true };
    }
    if (update.start) {
        m_start = std::move(update.start);
        changes.state = true;
    }
    for (const ProbeStep& s : update.steps) {
        if (!m_step.empty()) {
            const auto last = int64_t(m_step.back());
            if (s.step > last + 1)
                m_missing += s.step - last - 1;
            else if (s.step <= last)
                ++m_outOfOrder;
        }
        m_step.push_back(double(s.step));
        const float waitF = ms(s.waitsNs[0]);
        const float waitB = ms(s.waitsNs[1]);
        const float waitO = ms(s.waitsNs[2]);
        // The host's own work in each phase; the loop's waits are drawn apart (the site chart).
        m_f.push_back(std::max(0.0f, ms(s.fNs) - waitF));
        m_b.push_back(std::max(0.0f, ms(s.bNs) - waitB));
        m_o.push_back(std::max(0.0f, ms(s.oNs) - waitO));
        m_host.push_back(ms(s.fNs + s.bNs + s.oNs));
        m_gpu.push_back(s.gpuMs ? float(*s.gpuMs) : -1.0f);
        m_wait.push_back(waitF + waitB + waitO);
        m_added.push_back(ms(s.xNs));
        m_block.push_back(s.block ? int32_t(*s.block) : -1);
        m_stage.push_back(nameIndex(s.stage));
        m_style.push_back(nameIndex(s.style));
        m_firstSteps.add(s);
        for (const ProbeSync& sync : s.syncs) {
            if (sync.site < 0)
                continue;
            if (size_t(sync.site) >= m_sites.size())
                m_sites.resize(size_t(sync.site) + 1);
            FollowSite& site = m_sites[size_t(sync.site)];
            site.id = sync.site;
            site.op = sync.op;
            ++site.count;
            site.waitMs += double(sync.waitNs) * 1e-6;
            changes.sites = true;
        }
        m_syncCount.push_back(uint16_t(std::min<size_t>(s.syncs.size(), 65535)));
    }
    changes.steps = !update.steps.empty();
    if (!update.blocks.empty()) {
        m_blocks.insert(m_blocks.end(), update.blocks.begin(), update.blocks.end());
        changes.blocks = true;
    }
    for (const ProbeLiveAb& estimate : ab) {
        if (estimate.rounds > 0 && (m_ab.empty() || estimate.rounds > m_ab.back().rounds)) {
            m_ab.push_back({ estimate.rounds, estimate.item, estimate.control });
            changes.ab = true;
        }
    }
    if (update.abFinal) {
        // The probe's own answer closes the curve; where it counted the rounds as the live one
        // did, it takes that point's place.
        m_abFinal = update.abFinal;
        m_abWritten = std::move(update.abWritten);
        if (!m_ab.empty() && m_ab.back().rounds == m_abFinal->rounds)
            m_ab.pop_back();
        if (m_abFinal->rounds > 0)
            m_ab.push_back({ m_abFinal->rounds, m_abFinal->item, m_abFinal->control });
        changes.ab = true;
    }
    if (!update.phasesMs.empty()) {
        m_phases.insert(m_phases.end(), update.phasesMs.begin(), update.phasesMs.end());
        changes.phases = true;
    }
    if (update.sites) {
        m_named = std::move(*update.sites);
        changes.sites = true;
    }
    if (update.end && !m_end) {
        m_end = std::move(update.end);
        changes.end = true;
    }
    if (update.traceAppeared && m_tracePath.empty()) {
        m_tracePath = update.tracePath;
        changes.trace = true;
    }
    if (update.state != m_state) {
        m_state = update.state;
        changes.state = true;
    }
    for (std::string& note : update.notes)
        m_notes.push_back(std::move(note));
    return changes;
}

std::vector<FollowSite> FollowRun::sites() const
{
    std::vector<FollowSite> sites;
    for (const FollowSite& s : m_sites) {
        if (s.id >= 0)
            sites.push_back(s);
    }
    for (const ProbeSite& named : m_named) {
        auto it = std::find_if(sites.begin(), sites.end(), [&](const FollowSite& s) { return s.id == named.id; });
        if (it == sites.end())
            it = sites.insert(sites.end(), FollowSite { named.id, named.op });
        it->file = named.file;
        it->line = named.line;
        it->function = named.function;
        it->userFile = named.userFile;
        it->userLine = named.userLine;
        // sites.json counts the syncs a step did not list (past 256 a step) as well.
        if (named.count > it->count) {
            it->count = named.count;
            it->waitMs = named.totalWaitMs;
        }
    }
    std::stable_sort(
        sites.begin(), sites.end(), [](const FollowSite& a, const FollowSite& b) { return a.waitMs > b.waitMs; });
    return sites;
}

int64_t FollowRun::countedSteps(int64_t last) const
{
    int64_t counted = 0;
    for (const ProbeBlock& b : m_blocks) {
        if (!b.timed && (last < 0 || (b.firstStep >= 0 && b.firstStep + b.steps <= last)))
            counted += b.steps;
    }
    return counted;
}

int64_t FollowRun::missingSteps() const
{
    // A counted block's steps have no lines: they are gaps, up to the last step that arrived.
    return m_step.empty() ? 0 : std::max<int64_t>(0, m_missing - countedSteps(lastStep()));
}

bool FollowRun::hasAb() const
{
    return !m_ab.empty() || (m_start && !m_start->ab.empty())
        || std::any_of(m_blocks.begin(), m_blocks.end(), [](const ProbeBlock& b) { return isAbTreatment(b.style); });
}

std::string FollowRun::abStyle() const
{
    if (!hasAb())
        return {};
    if (m_abWritten && !m_abWritten->ab.empty())
        return m_abWritten->ab;
    return abTreatment(m_blocks, m_start ? m_start->ab : std::string());
}

std::string FollowRun::deferredSite() const
{
    for (auto b = m_blocks.rbegin(); b != m_blocks.rend(); ++b) {
        if (b->deferredSite)
            return *b->deferredSite;
    }
    return {};
}

std::string FollowRun::abTreatmentText() const
{
    if (abStyle() != "defer")
        return "an added loss.item()";
    const std::string site = deferredSite();
    return site.empty() ? "deferring a line's syncs" : "deferring " + site;
}

std::string FollowRun::abMeasureText() const
{
    return (abStyle() == "defer" ? "change from " : "tax of ") + abTreatmentText();
}

FollowRun::Summary FollowRun::summary() const
{
    Summary s;
    // The measured blocks' steps where there are some: warm-up and the profiled capture are no
    // picture of the loop.
    size_t from = 0;
    const uint8_t blockStage = uint8_t(std::find(m_names.begin(), m_names.end(), "block") - m_names.begin());
    const auto firstBlock = std::find(m_stage.begin(), m_stage.end(), blockStage);
    if (firstBlock != m_stage.end())
        from = size_t(firstBlock - m_stage.begin());
    s.steps = m_step.size() - from;
    if (s.steps == 0)
        return s;
    s.hostMs = medianOf(m_host, from, false);
    s.fMs = medianOf(m_f, from, false);
    s.bMs = medianOf(m_b, from, false);
    s.oMs = medianOf(m_o, from, false);
    if (const double gpu = medianOf(m_gpu, from, true); gpu >= 0)
        s.gpuMs = gpu;
    double wait = 0;
    double syncs = 0;
    for (size_t i = from; i < m_wait.size(); ++i) {
        wait += m_wait[i];
        syncs += m_syncCount[i];
    }
    s.waitMsPerStep = wait / double(s.steps);
    s.syncsPerStep = syncs / double(s.steps);
    std::vector<double> blockMs;
    for (const ProbeBlock& b : m_blocks) {
        if ((b.style == "calib" || b.style == "none") && b.msPerStep > 0)
            blockMs.push_back(b.msPerStep);
    }
    if (blockMs.size() >= 2) {
        const double m = mean(blockMs);
        double ss = 0;
        for (const double v : blockMs)
            ss += (v - m) * (v - m);
        const double n = double(blockMs.size());
        const double half = studentT(0.975, n - 1) * std::sqrt(ss / (n - 1) / n);
        s.stepMs = Interval { m, m - half, m + half };
    }
    return s;
}

std::optional<FollowRun::OwnTime> FollowRun::probeOwnTime() const
{
    std::vector<double> own;
    std::vector<double> steps;
    for (const ProbeBlock& b : m_blocks) {
        if (b.probeMs && *b.probeMs >= 0)
            own.push_back(*b.probeMs);
        if (!isAbTreatment(b.style) && b.msPerStep > 0)
            steps.push_back(b.msPerStep);
    }
    if (own.empty() || steps.empty())
        return std::nullopt;
    return OwnTime { median(own) * 1e3, median(steps) };
}

std::vector<std::vector<std::array<double, 3>>> FollowRun::blockFirstStepsMs() const
{
    if (!m_start || m_start->ab.empty())
        return {};
    return m_firstSteps.ms();
}

} // namespace synctax

namespace synctax {

FollowRun readRunFolder(const std::string& dir, const std::atomic<bool>& cancel)
{
    ProbeFollower follower(dir);
    FollowRun run;
    std::vector<ProbeBlock> blocks;
    for (;;) {
        ProbeFollowUpdate update = follower.poll(size_t(1) << 16);
        const bool more = update.more;
        blocks.insert(blocks.end(), update.blocks.begin(), update.blocks.end());
        run.apply(std::move(update));
        if (!more || cancel) {
            // Once, at the end: the A/B over every complete round (ab.json's answer, where written, follows it).
            if (!run.abFinal() && !blocks.empty()) {
                ProbeFollowUpdate none;
                none.state = run.state();
                const ProbeStart start = run.start().value_or(ProbeStart {});
                run.apply(std::move(none), { liveAb(blocks, start.resamples, start.seed) });
            }
            return run;
        }
    }
}

} // namespace synctax
