// The main window's side of data-parallel runs: synctax-run starts the rank processes and keeps
// them in lockstep (ui/launcherrun.h runs it); the window shows its progress and opens its results.
#include "ui/mainwindow.h"

#include "core/text/format.h"
#include "ui/launcherrun.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace synctax {

void MainWindow::connectLauncher()
{
    m_launcher = new LauncherRun(this);
    connect(m_launcher, &LauncherRun::progress, this, &MainWindow::onProgress);
    connect(m_launcher, &LauncherRun::lineAvailable, this, [this](const QString& line) { log(line); });
    connect(m_launcher, &LauncherRun::resultsAvailable, this, &MainWindow::onLauncherResults);
    connect(m_launcher, &LauncherRun::runFailed, this, &MainWindow::onLauncherFailed);
}

bool MainWindow::isRunning() const { return m_controller.isRunning() || m_launcher->isRunning(); }

bool MainWindow::runWithLauncher(const ExperimentConfig& config)
{
    QString error;
    if (!m_launcher->start(config, runsFolder(), &error)) {
        fail(tr("Cannot run"), error, nullptr);
        return false;
    }
    m_controller.clear();
    m_results->beginRun(config);
    m_results->showNoSteps(
        tr("The ranks run in their own processes: their steps show in the Ranks dock when the run ends."));
    showResult(m_results->result());
    log(tr("Run started: %1, %2 ranks through %3, in %4")
            .arg(QString::fromStdString(config.name))
            .arg(config.distributed->ranks)
            .arg(m_launcher->program(), m_launcher->folder()));
    log(tr("The ranks run in their own processes: live charts stay empty; results open when the run ends."));
    setRunning(true);
    m_progress->setValue(0);
    m_cellLabel->setText(tr("Starting %1 ranks…").arg(config.distributed->ranks));
    m_etaLabel->clear();
    return true;
}

void MainWindow::onLauncherResults(const QString& path, int exitCode)
{
    setRunning(false);
    m_progress->setValue(m_progress->maximum());
    QString error;
    if (!openResults(path, &error)) {
        m_cellLabel->setText(tr("Run failed"));
        Q_EMIT runFinished(true);
        return;
    }
    m_lastSavedRun = path;
    // 130: stopped, the ranks kept what they measured; 1: a rank failed, the others' cells are kept.
    const bool stopped = m_results->result().stopped || exitCode == 130;
    const QString duration = QString::fromStdString(formatDuration(m_results->result().durationS));
    QString what = stopped ? tr("Run stopped after %1; partial results kept").arg(duration)
                           : tr("Run finished in %1").arg(duration);
    if (exitCode == 1)
        what = tr("Run ended early: a rank failed; the results are partial (the Ranks dock says which)");
    m_cellLabel->setText(what);
    log(what);
    log(tr("Results kept in %1").arg(path));
    statusBar()->showMessage(what, 10000);
    Q_EMIT runFinished(stopped || exitCode != 0);
}

void MainWindow::onLauncherFailed(const QString& message)
{
    setRunning(false);
    if (m_launcher->stopRequested()) {
        // The user asked for it: no message box, only what happened.
        log(tr("Run stopped: %1").arg(message));
        m_cellLabel->setText(tr("Run stopped before any results were written"));
    } else {
        m_cellLabel->setText(tr("Run failed"));
        fail(tr("Run failed"), message, nullptr);
    }
    Q_EMIT runFinished(true);
}

} // namespace synctax
