#include "ui/follow/followcalibrator.h"

#include "core/probe/traceopen.h"
#include "ui/follow/backgroundthread.h"

#include <QMetaObject>

#include <exception>

namespace synctax {

FollowCalibrator::FollowCalibrator(QObject* parent)
    : QObject(parent)
{
    m_wait.setSingleShot(true);
    connect(&m_wait, &QTimer::timeout, this, &FollowCalibrator::startPending);
}

FollowCalibrator::~FollowCalibrator()
{
    if (m_cancel)
        *m_cancel = true;
    joinWorker();
}

void FollowCalibrator::joinWorker()
{
    if (m_worker.joinable())
        m_worker.join();
}

void FollowCalibrator::reset()
{
    ++m_generation;
    if (m_cancel)
        *m_cancel = true;
    m_pending = false;
    m_wait.stop();
    m_busy = false;
    m_openedPath.clear();
    m_opened.reset();
    m_loop.reset();
    m_loopRows = 0;
}

void FollowCalibrator::request(const QString& tracePath, std::vector<std::array<double, 3>> phases,
    std::vector<std::vector<std::array<double, 3>>> firstSteps)
{
    if (tracePath.isEmpty())
        return;
    m_pending = true;
    m_pendingPath = tracePath;
    m_pendingPhases = std::move(phases);
    m_pendingFirstSteps = std::move(firstSteps);
    startPending();
}

void FollowCalibrator::startPending()
{
    if (!m_pending || m_busy)
        return;
    if (m_sinceStart.isValid() && m_sinceStart.elapsed() < m_minIntervalMs) {
        if (!m_wait.isActive())
            m_wait.start(int(m_minIntervalMs - m_sinceStart.elapsed()));
        return;
    }
    m_pending = false;
    m_busy = true;
    m_sinceStart.start();
    joinWorker(); // the last one has delivered its result: it is ending, if not gone
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const std::shared_ptr<const ImportedLoop> opened = m_openedPath == m_pendingPath ? m_opened : nullptr;
    m_worker
        = std::thread([this, generation = m_generation, path = m_pendingPath.toStdString(), phases = m_pendingPhases,
                          firstSteps = std::move(m_pendingFirstSteps), opened, cancel = m_cancel] {
              yieldToTheWindowThread();
              std::shared_ptr<const ImportedLoop> first = opened;
              std::shared_ptr<const ImportedLoop> loop;
              QString error;
              try {
                  const ImportedLoopOptions options = phasesOptions(phases);
                  if (first) {
                      loop = std::make_shared<const ImportedLoop>(recalibrated(*first, options));
                  } else {
                      OpenTraceOptions open;
                      open.cancel = cancel.get();
                      open.loop = options;
                      OpenTraceResult result = openTrace(path, open);
                      if (result.opened) {
                          loop = std::make_shared<const ImportedLoop>(std::move(result.opened->loop));
                          first = loop;
                      } else if (!result.cancelled) {
                          error = QString::fromStdString(result.error);
                      }
                  }
                  if (loop && loop->available && !phases.empty())
                      loop = std::make_shared<const ImportedLoop>(queueFreeCalibrated(*loop, phases, firstSteps));
              } catch (const std::exception& e) {
                  error = QString::fromUtf8(e.what());
              }
              if (*cancel)
                  return;
              QMetaObject::invokeMethod(
                  this,
                  [this, generation, path = QString::fromStdString(path), first, loop, rows = int(phases.size()),
                      error] { finished(generation, path, first, loop, rows, error); },
                  Qt::QueuedConnection);
          });
}

void FollowCalibrator::finished(uint32_t generation, const QString& path, std::shared_ptr<const ImportedLoop> opened,
    std::shared_ptr<const ImportedLoop> loop, int rows, const QString& error)
{
    if (generation != m_generation)
        return;
    m_busy = false;
    if (!error.isEmpty() || !loop) {
        Q_EMIT calibrationFailed(error);
    } else {
        m_openedPath = path;
        m_opened = std::move(opened);
        m_loop = std::move(loop);
        m_loopRows = rows;
        ++m_calibrations;
        Q_EMIT loopAvailable();
    }
    startPending();
}

} // namespace synctax
