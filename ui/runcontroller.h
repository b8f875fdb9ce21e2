#pragma once

#include "core/analysis/experimentresult.h"
#include "core/analysis/liveresults.h"
#include "core/config/experimentconfig.h"
#include "core/steps/cellplan.h"
#include "core/steps/runhistory.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace synctax {

class StepRing;

// Runs one experiment at a time on a worker thread and hands its data to the UI thread.
// The training loop never returns to an event loop, so it is stopped through a polled atomic;
// per-step records cross in a bounded ring drained by a timer, never one signal per step.
// Everything the worker sends carries the run's id, and what arrives from an older run is dropped.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override; // stops a run in progress and waits for it (within one step)

    bool isRunning() const { return m_running; }
    uint32_t runId() const { return m_runId; }
    const RunHistory& history() const { return m_history; }
    // The drain timer's interval; 25 ms (40 Hz) unless changed.
    void setDrainIntervalMs(int ms) { m_drainTimer.setInterval(ms); }

    // The latest numbers: a live snapshot while running, the runner's result once finished.
    const ExperimentResult& result() const { return m_result; }

    struct DrainStats {
        uint64_t drains = 0;
        uint64_t records = 0;
        double busyMs = 0; // time spent inside drains, listeners included
        double maxDrainMs = 0;
    };
    const DrainStats& drainStats() const { return m_drainStats; }
    uint64_t droppedRecords() const;

    // For benchmarks: the ring the worker writes to, and a run started without a worker.
    StepRing* ring() const { return m_ring.get(); }
    void beginExternalRun(const std::vector<CellPlan>& cells, const ExperimentConfig& config);

public Q_SLOTS:
    // False when a run is already in progress.
    bool start(const ExperimentConfig& config);
    // Asks the worker to stop; the loop honours it within one step. runFinished follows.
    void stop();
    // Stops and waits until the worker has ended.
    void stopAndWait();
    // Forgets the last run's steps and result (not while running), e.g. when a file is opened instead.
    void clear();

Q_SIGNALS:
    void runStarted(uint32_t runId);
    void stepsAvailable(); // the history grew; emitted at most once per drain
    void resultAvailable(); // result() changed (a live snapshot)
    // fraction: the share of the run done; remainingS: estimated seconds left, -1 when not known yet.
    void progress(double fraction, const QString& cell, double elapsedS, double remainingS);
    void noteAvailable(const QString& note);
    void runFinished(bool stopped); // result() holds the run's final (or partial) result
    void runFailed(const QString& message); // the run could not start or threw

private:
    void drain();
    void publishSnapshot();
    void finishRun(std::optional<ExperimentResult> result, const std::string& error);
    void joinWorker();
    // Runs fn on the UI thread if the run it belongs to is still the current one.
    template <typename Fn> void post(uint32_t runId, Fn fn);

    std::unique_ptr<StepRing> m_ring;
    std::thread m_worker;
    std::atomic<bool> m_stop { false };
    bool m_running = false;
    uint32_t m_runId = 0;
    RunHistory m_history;
    LiveResults m_live;
    ExperimentResult m_result;
    QTimer m_drainTimer;
    QTimer m_snapshotTimer;
    std::vector<StepRecord> m_buffer;
    DrainStats m_drainStats;
};

} // namespace synctax
