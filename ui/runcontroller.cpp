#include "ui/runcontroller.h"

#include "core/engine/run/experimentrunner.h"
#include "core/engine/run/modelcheck.h"
#include "core/steps/stepring.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <algorithm>
#include <chrono>
#include <exception>

namespace synctax {

RunController::RunController(QObject* parent)
    : QObject(parent)
    , m_ring(std::make_unique<StepRing>())
{
    m_drainTimer.setInterval(25);
    connect(&m_drainTimer, &QTimer::timeout, this, &RunController::drain);
    // Re-analysing the rounds (a bootstrap per cell) is worth doing a few times a second, not per block.
    m_snapshotTimer.setInterval(300);
    connect(&m_snapshotTimer, &QTimer::timeout, this, &RunController::publishSnapshot);
}

RunController::~RunController()
{
    m_stop = true;
    joinWorker();
}

uint64_t RunController::droppedRecords() const { return m_ring->dropped(); }

template <typename Fn> void RunController::post(uint32_t runId, Fn fn)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, fn = std::move(fn)]() mutable {
            if (runId == m_runId && m_running)
                fn();
        },
        Qt::QueuedConnection);
}

bool RunController::start(const ExperimentConfig& config)
{
    if (m_running)
        return false;
    joinWorker();
    const uint32_t id = ++m_runId;
    m_running = true;
    m_stop = false;
    m_result = ExperimentResult {};
    m_result.config = config;
    m_history.clear();
    m_live = LiveResults {};
    // A fresh ring: nothing of an earlier run can be read as this one's.
    m_ring = std::make_unique<StepRing>();
    StepRing* ring = m_ring.get();

    m_worker = std::thread([this, config, id, ring] {
        try {
            // A TorchScript model that would fail is refused before anything runs, with its key.
            if (const auto errors = checkModelFiles(config); !errors.empty()) {
                post(id, [this, message = formatErrors(errors)] { finishRun({}, message); });
                return;
            }
            ExperimentRunner runner(config, ring, id);
            Environment environment;
            environment.device = runner.device();
            post(id, [this, config, id, environment, cells = runner.cells()] {
                m_history.reset(cells, id);
                m_live.reset(config, cells, environment);
                Q_EMIT runStarted(id);
            });
            runner.onProgress = [this, id](const RunProgress& p) {
                post(id, [this, p] {
                    Q_EMIT progress(
                        p.fraction(), QString::fromStdString(p.cell), p.elapsedS, p.blocksDone > 0 ? p.remainingS : -1);
                });
            };
            runner.onBlockMeasured = [this, id](const CellPlan& cell, int round, int64_t, double msPerStep) {
                post(id, [this, index = cell.index, round, msPerStep] { m_live.addBlock(index, round, msPerStep); });
            };
            runner.onGroupFinished = [this, id](const GroupResult& group, const std::vector<CellResult>& cells) {
                post(id, [this, group, cells] { m_live.finishGroup(group, cells); });
            };
            runner.onNote = [this, id](const std::string& note) {
                post(id, [this, note] { Q_EMIT noteAvailable(QString::fromStdString(note)); });
            };
            ExperimentResult result = runner.run(m_stop);
            post(id, [this, result = std::move(result)]() mutable { finishRun(std::move(result), {}); });
        } catch (const std::exception& e) {
            post(id, [this, message = std::string(e.what())] { finishRun({}, message); });
        }
    });
    m_drainTimer.start();
    m_snapshotTimer.start();
    return true;
}

void RunController::finishRun(std::optional<ExperimentResult> result, const std::string& error)
{
    joinWorker();
    m_running = false;
    drain();
    m_drainTimer.stop();
    m_snapshotTimer.stop();
    if (!result) {
        Q_EMIT runFailed(QString::fromStdString(error));
        return;
    }
    m_result = std::move(*result);
    Q_EMIT resultAvailable();
    Q_EMIT runFinished(m_result.stopped);
}

void RunController::stop() { m_stop = true; }

void RunController::stopAndWait()
{
    if (!m_running)
        return;
    m_stop = true;
    joinWorker();
    // The worker's last message is queued behind this call: deliver it now, so the partial result
    // is in place before the caller goes on (the queued copy then finds the run over and does nothing).
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

void RunController::clear()
{
    if (m_running)
        return;
    m_history.clear();
    m_result = ExperimentResult {};
    Q_EMIT stepsAvailable();
}

void RunController::joinWorker()
{
    if (m_worker.joinable() && m_worker.get_id() != std::this_thread::get_id())
        m_worker.join();
}

void RunController::beginExternalRun(const std::vector<CellPlan>& cells, const ExperimentConfig& config)
{
    const uint32_t id = ++m_runId;
    m_running = true;
    m_ring = std::make_unique<StepRing>();
    m_history.reset(cells, id);
    m_live.reset(config, cells, Environment {});
    m_result = ExperimentResult {};
    m_result.config = config;
    m_drainTimer.start();
}

void RunController::drain()
{
    // Records reach the ring before the run's cell list reaches this thread: leave them there until then.
    if (m_history.runId() != m_runId)
        return;
    const auto begin = std::chrono::steady_clock::now();
    m_buffer.clear();
    m_ring->drain(m_buffer);
    if (!m_buffer.empty() && m_history.append(m_buffer) > 0)
        Q_EMIT stepsAvailable();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    ++m_drainStats.drains;
    m_drainStats.records += m_buffer.size();
    m_drainStats.busyMs += ms;
    m_drainStats.maxDrainMs = std::max(m_drainStats.maxDrainMs, ms);
}

void RunController::publishSnapshot()
{
    if (!m_running || !m_live.dirty())
        return;
    m_result = m_live.snapshot();
    Q_EMIT resultAvailable();
}

} // namespace synctax
