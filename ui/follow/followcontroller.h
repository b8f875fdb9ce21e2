#pragma once

#include "core/probe/probefollow.h"
#include "ui/follow/followrun.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <thread>

namespace synctax {

// Follows a probe's run folder while the job writes it. A worker thread polls the folder
// (ProbeFollower reads the disk; the window's thread never does) every pollIntervalMs, or at once
// while steps wait on disk, and hands each update to the window through a bounded queue: when the
// queue is full the worker waits (back-pressure) and the rest stays on disk, so nothing is dropped.
// A timer drains the queue (25 ms, 40 Hz) into run() and says so once per drain, never once per step.
// A new follow replaces the worker; its queue is its own, so nothing of an earlier folder arrives.
class FollowController : public QObject {
    Q_OBJECT
public:
    explicit FollowController(QObject* parent = nullptr);
    ~FollowController() override; // stops the worker and waits for it (within one poll)

    // Starts following `dir` (which may not exist yet: the state is then Waiting). False when empty.
    bool start(const QString& dir, const FollowOptions& options = {});
    // Stops polling; what was read stays in run().
    void stop();
    bool isFollowing() const { return m_worker.joinable(); }
    QString dir() const { return m_dir; }
    uint32_t followId() const { return m_followId; }
    const FollowRun& run() const { return m_run; }
    // What the last drain changed (updatesAvailable's listeners read it).
    const FollowRun::Changes& lastChanges() const { return m_lastChanges; }

    void setDrainIntervalMs(int ms) { m_drainTimer.setInterval(ms); }
    void setPollIntervalMs(int ms) { m_pollMs = ms; } // from the next start()
    void setQueueCapacity(size_t updates) { m_capacity = updates; } // from the next start()
    void setStepsPerPoll(size_t steps) { m_stepsPerPoll = steps; } // from the next start()

    struct DrainStats {
        uint64_t drains = 0;
        uint64_t updates = 0;
        uint64_t steps = 0;
        double busyMs = 0; // inside drains, listeners (the charts' redraw) included
        double maxDrainMs = 0; // the longest the window's thread was held by one drain
        uint64_t queueFullWaits = 0; // the worker waited for room: back-pressure, not a drop
    };
    DrainStats drainStats() const;

Q_SIGNALS:
    void followStarted(const QString& dir);
    void updatesAvailable(); // at most once per drain; lastChanges() says what changed
    void followFinished(synctax::FollowState state); // the worker ended: the job ended or the folder went

private:
    struct Channel;
    void drain();
    void joinWorker();

    std::shared_ptr<Channel> m_channel;
    std::thread m_worker;
    QString m_dir;
    uint32_t m_followId = 0;
    FollowRun m_run;
    FollowRun::Changes m_lastChanges;
    QTimer m_drainTimer;
    DrainStats m_stats;
    int m_pollMs = 50;
    size_t m_capacity = 64;
    size_t m_stepsPerPoll = 4096;
    size_t m_updatesPerDrain = 16; // bounds a drain while a long folder is read back
};

} // namespace synctax

Q_DECLARE_METATYPE(synctax::FollowState)
