#include "ui/follow/followcontroller.h"

#include "ui/follow/backgroundthread.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>

namespace synctax {

// What the worker and the window share: the bounded queue and the flags, kept alive by both.
struct FollowController::Channel {
    struct Item {
        ProbeFollowUpdate update;
        std::vector<ProbeLiveAb> ab; // computed anew where the poll completed rounds, in order
    };
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Item> queue;
    size_t capacity = 64;
    bool stop = false;
    bool finished = false;
    uint64_t fullWaits = 0;
};

namespace {

bool carries(const ProbeFollowUpdate& u)
{
    return !u.steps.empty() || !u.blocks.empty() || !u.phasesMs.empty() || u.sites || u.end || u.traceAppeared
        || !u.notes.empty() || u.start || u.abFinal || u.restarted;
}

// The blocks of the A/B's rounds so far, and its estimate when a round may have completed: the
// bootstrap runs here, on the worker, not in the window's drain. A poll that brought many rounds
// at once (a finished folder opened to follow, a reader catching up) gives the estimate at each,
// as a follower from the start would have drawn it, thinned to at most kCatchUpPoints, each of
// those over kCatchUpResamples resamples (the curve's shape; the last point, the answer, over the
// probe's own number, as trace DIR gives it).
class LiveAbTracker {
public:
    static constexpr int kCatchUpPoints = 16;
    static constexpr int kCatchUpResamples = 200;

    std::vector<ProbeLiveAb> add(const ProbeFollowUpdate& u)
    {
        if (u.restarted) {
            m_blocks.clear();
            m_inRounds = 0;
            m_rounds = 0;
        }
        if (u.start) {
            m_resamples = u.start->resamples;
            m_seed = u.start->seed;
        }
        size_t inRounds = 0;
        for (const ProbeBlock& b : u.blocks) {
            m_blocks.push_back(b);
            inRounds += b.round ? 1 : 0;
        }
        m_inRounds += inRounds;
        // Four blocks make a round: nothing new to estimate before four more arrived.
        if (inRounds == 0 || m_inRounds / 4 <= size_t(m_rounds))
            return {};
        ProbeLiveAb all = liveAb(m_blocks, m_resamples, m_seed);
        if (all.rounds <= m_rounds)
            return {};
        std::vector<ProbeLiveAb> out;
        const int stride = std::max(1, (all.rounds - m_rounds) / kCatchUpPoints);
        for (int last = m_rounds + stride; last < all.rounds; last += stride) {
            ProbeLiveAb upTo = liveAb(firstRounds(last), std::min(m_resamples, kCatchUpResamples), m_seed);
            if (upTo.rounds > (out.empty() ? m_rounds : out.back().rounds) && upTo.rounds < all.rounds)
                out.push_back(upTo);
        }
        m_rounds = all.rounds;
        out.push_back(all);
        return out;
    }

private:
    // The blocks of the first `count` rounds by their index (rounds come in order; a round cut
    // short leaves fewer complete ones, which liveAb counts).
    std::vector<ProbeBlock> firstRounds(int count) const
    {
        std::vector<ProbeBlock> blocks;
        for (const ProbeBlock& b : m_blocks) {
            if (b.round && *b.round < count)
                blocks.push_back(b);
        }
        return blocks;
    }

    std::vector<ProbeBlock> m_blocks;
    size_t m_inRounds = 0;
    int m_rounds = 0;
    int m_resamples = 2000;
    uint64_t m_seed = 1;
};

bool isFinal(FollowState state) { return state == FollowState::Ended || state == FollowState::Deleted; }

} // namespace

FollowController::FollowController(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<synctax::FollowState>();
    m_drainTimer.setInterval(25);
    connect(&m_drainTimer, &QTimer::timeout, this, &FollowController::drain);
}

FollowController::~FollowController() { stop(); }

bool FollowController::start(const QString& dir, const FollowOptions& options)
{
    if (dir.isEmpty())
        return false;
    stop();
    ++m_followId;
    m_dir = dir;
    m_run = FollowRun {};
    m_lastChanges = FollowRun::Changes {};
    m_stats = DrainStats {};
    m_channel = std::make_shared<Channel>();
    m_channel->capacity = std::max<size_t>(1, m_capacity);
    m_worker = std::thread(
        [channel = m_channel, path = dir.toStdString(), options, pollMs = m_pollMs, steps = m_stepsPerPoll] {
            yieldToTheWindowThread();
            ProbeFollower follower(path, options);
            LiveAbTracker ab;
            std::optional<FollowState> told;
            for (;;) {
                ProbeFollowUpdate update;
                try {
                    update = follower.poll(steps);
                } catch (const std::exception& e) {
                    update.notes.push_back(e.what());
                    update.state = follower.state();
                }
                const bool more = update.more;
                const FollowState state = update.state;
                std::vector<ProbeLiveAb> estimates = ab.add(update);
                std::unique_lock lock(channel->mutex);
                if (carries(update) || !estimates.empty() || told != state) {
                    if (channel->queue.size() >= channel->capacity) {
                        ++channel->fullWaits;
                        channel->changed.wait(
                            lock, [&] { return channel->stop || channel->queue.size() < channel->capacity; });
                    }
                    if (channel->stop)
                        break;
                    channel->queue.push_back({ std::move(update), std::move(estimates) });
                    told = state;
                }
                if (channel->stop || (isFinal(state) && !more))
                    break;
                if (!more)
                    channel->changed.wait_for(lock, std::chrono::milliseconds(pollMs), [&] { return channel->stop; });
                if (channel->stop)
                    break;
            }
            const std::lock_guard lock(channel->mutex);
            channel->finished = true;
        });
    m_drainTimer.start();
    Q_EMIT followStarted(dir);
    return true;
}

void FollowController::stop()
{
    if (m_channel) {
        {
            const std::lock_guard lock(m_channel->mutex);
            m_channel->stop = true;
        }
        m_channel->changed.notify_all();
    }
    joinWorker();
    m_drainTimer.stop();
}

void FollowController::joinWorker()
{
    if (m_worker.joinable())
        m_worker.join();
}

FollowController::DrainStats FollowController::drainStats() const
{
    DrainStats stats = m_stats;
    if (m_channel) {
        const std::lock_guard lock(m_channel->mutex);
        stats.queueFullWaits = m_channel->fullWaits;
    }
    return stats;
}

void FollowController::drain()
{
    if (!m_channel)
        return;
    const auto begin = std::chrono::steady_clock::now();
    std::vector<Channel::Item> taken;
    bool finished = false;
    {
        const std::lock_guard lock(m_channel->mutex);
        while (!m_channel->queue.empty() && taken.size() < m_updatesPerDrain) {
            taken.push_back(std::move(m_channel->queue.front()));
            m_channel->queue.pop_front();
        }
        finished = m_channel->finished && m_channel->queue.empty();
    }
    if (!taken.empty())
        m_channel->changed.notify_all(); // room again for a worker held by back-pressure
    FollowRun::Changes changes;
    for (Channel::Item& item : taken) {
        m_stats.steps += item.update.steps.size();
        changes.merge(m_run.apply(std::move(item.update), item.ab));
    }
    m_stats.updates += taken.size();
    if (changes.any()) {
        m_lastChanges = changes;
        Q_EMIT updatesAvailable();
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    ++m_stats.drains;
    m_stats.busyMs += ms;
    m_stats.maxDrainMs = std::max(m_stats.maxDrainMs, ms);
    if (finished) {
        m_drainTimer.stop();
        joinWorker();
        Q_EMIT followFinished(m_run.state());
    }
}

} // namespace synctax
