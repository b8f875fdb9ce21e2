#pragma once

#include "core/trace/tracewhatif.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace synctax {

// The what-if's loop of a followed run, calibrated again as its calibration blocks complete: the
// profiled capture read once with openTrace on a worker thread (it reads the file), then
// recalibrated there to the phases timed so far. At most one calibration every minIntervalMs and
// one at a time; a request made meanwhile waits, the latest replacing an earlier one.
class FollowCalibrator : public QObject {
    Q_OBJECT
public:
    explicit FollowCalibrator(QObject* parent = nullptr);
    ~FollowCalibrator() override; // cancels a read in progress and waits for it

    void setMinIntervalMs(int ms) { m_minIntervalMs = ms; }
    // The capture at `tracePath` calibrated to `phases` (none yet: the profiler's cost per event), or
    // to the blocks' first steps where queueFreeCalibrated takes them (`firstSteps`, per block).
    void request(const QString& tracePath, std::vector<std::array<double, 3>> phases,
        std::vector<std::vector<std::array<double, 3>>> firstSteps = {});
    // Forgets the run: a calibration in progress is dropped when it ends.
    void reset();
    bool isBusy() const { return m_busy; }
    bool isIdle() const { return !m_busy && !m_pending; } // nothing running and nothing waiting
    int calibrations() const { return m_calibrations; }
    std::shared_ptr<const ImportedLoop> loop() const { return m_loop; }
    int phaseRows() const { return m_loopRows; } // of the phases the loop shown was calibrated to

Q_SIGNALS:
    void loopAvailable(); // loop() and phaseRows() are new
    void calibrationFailed(const QString& message);

private:
    void startPending();
    void finished(uint32_t generation, const QString& path, std::shared_ptr<const ImportedLoop> opened,
        std::shared_ptr<const ImportedLoop> loop, int rows, const QString& error);
    void joinWorker();

    int m_minIntervalMs = 2000;
    QTimer m_wait; // until the interval since the last start has passed
    QElapsedTimer m_sinceStart;
    bool m_pending = false;
    QString m_pendingPath;
    std::vector<std::array<double, 3>> m_pendingPhases;
    std::vector<std::vector<std::array<double, 3>>> m_pendingFirstSteps;
    bool m_busy = false;
    uint32_t m_generation = 0;
    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QString m_openedPath;
    std::shared_ptr<const ImportedLoop> m_opened; // the capture's loop as openTrace made it
    std::shared_ptr<const ImportedLoop> m_loop;
    int m_loopRows = 0;
    int m_calibrations = 0;
};

} // namespace synctax
