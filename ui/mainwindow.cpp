#include "ui/mainwindow.h"

#include "core/config/configerror.h"
#include "core/config/configloader.h"
#include "core/config/configwriter.h"
#include "core/config/presets.h"
#include "core/probe/probefolder.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/runoutputs.h"
#include "core/text/format.h"
#include "ui/configpanel.h"
#include "ui/follow/followview.h"
#include "ui/launcherrun.h"
#include "ui/results/comparisonview.h"
#include "ui/results/diffdialog.h"
#include "ui/startpage.h"
#include "ui/teach/teachview.h"
#include "ui/trace/tracefiles.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTime>
#include <QToolButton>

#include <algorithm>

namespace synctax {

namespace {

QString durationText(double seconds) { return QString::fromStdString(formatDuration(seconds)); }

} // namespace

MainWindow::MainWindow(QWidget* parent, bool restoreSettings)
    : QMainWindow(parent)
    , m_restoreSettings(restoreSettings)
{
    setWindowTitle(QStringLiteral("SyncTax"));
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);
    createViews();
    createActions();
    createStatusBar();
    connectController();
    connectLauncher();
    loadPreset(QString::fromStdString(defaultPresetName(false)));
    sizeToScreen();
    if (m_restoreSettings)
        readSettings();
    else
        updateRecentMenu();
    setRunning(false);
}

void MainWindow::sizeToScreen()
{
    // First start: most of the screen, whatever its size; a saved geometry replaces this afterwards.
    const QRect available = screen()->availableGeometry();
    resize((QSizeF(available.size()) * 0.8).toSize().expandedTo(minimumSizeHint()).boundedTo(available.size()));
    move(available.center() - rect().center());
}

MainWindow::~MainWindow()
{
    // A data-parallel run through the launcher stops in ~LauncherRun (a child), with its signals cut
    // first: stopping it here would tell this half-destroyed window that it finished.
    m_controller.stopAndWait();
}

void MainWindow::createViews()
{
    m_central = new QStackedWidget(this);
    m_results = new ResultsPage(this, m_central);
    connect(m_results, &ResultsPage::noteAvailable, this, &MainWindow::log);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    m_pages->setTabBarAutoHide(true); // one page until a trace is opened: no tab bar
    m_pages->addTab(m_central, tr("Experiment"));
    setCentralWidget(m_pages);
    connect(m_pages, &QTabWidget::currentChanged, this, &MainWindow::hideDocksForPage);
    createTraceViews();

    m_configPanel = new ConfigPanel(this);
    auto* experimentDock = new QDockWidget(tr("Experiment"), this);
    experimentDock->setObjectName(QStringLiteral("experimentDock"));
    experimentDock->setWidget(m_configPanel);
    addDockWidget(Qt::LeftDockWidgetArea, experimentDock);
    // Without a parent until the Log dock takes it, so that it keeps its place in the focus chain.
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_results->createDocks(m_log);
}

TeachView* MainWindow::teachView()
{
    if (!m_teach) {
        m_teach = new TeachView(this);
        m_teach->setWindowFlag(Qt::Window);
        m_teach->setWindowTitle(tr("SyncTax — Teach: the queue simulator"));
        m_teach->resize(1400, 900);
    }
    return m_teach;
}

void MainWindow::createStartPage()
{
    m_startPage = new StartPage(m_runAction, m_openResultsAction, this);
    connect(m_startPage, &StartPage::presetChosen, this, &MainWindow::loadPreset);
    m_central->insertWidget(0, m_startPage);
    m_central->setCurrentWidget(m_startPage);
}

void MainWindow::createStatusBar()
{
    m_cellLabel = new QLabel(this);
    m_etaLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(260);
    m_progress->setTextVisible(true);
    statusBar()->addWidget(m_cellLabel, 1);
    statusBar()->addPermanentWidget(m_etaLabel);
    statusBar()->addPermanentWidget(m_progress);
    m_traceEta = new QLabel(this);
    m_traceProgress = new QProgressBar(this);
    m_traceProgress->setObjectName(QStringLiteral("traceProgress"));
    m_traceProgress->setMaximumWidth(220);
    m_traceProgress->setRange(0, 1000);
    m_traceCancel = new QToolButton(this);
    m_traceCancel->setObjectName(QStringLiteral("traceCancel"));
    m_traceCancel->setText(tr("Cancel"));
    m_traceCancel->setToolTip(tr("Stop reading the trace; what is shown stays"));
    statusBar()->addPermanentWidget(m_traceEta);
    statusBar()->addPermanentWidget(m_traceProgress);
    statusBar()->addPermanentWidget(m_traceCancel);
    setTraceLoading(false);
}

void MainWindow::connectController()
{
    connect(&m_controller, &RunController::runStarted, this, [this] {
        m_results->showRunSteps(m_controller.history());
        showResult(m_controller.result());
    });
    connect(&m_controller, &RunController::stepsAvailable, this,
        [this] { m_results->updateRunSteps(m_controller.history()); });
    connect(&m_controller, &RunController::resultAvailable, this, [this] { showResult(m_controller.result()); });
    connect(&m_controller, &RunController::progress, this, &MainWindow::onProgress);
    connect(&m_controller, &RunController::noteAvailable, this, [this](const QString& note) {
        log(note);
        statusBar()->showMessage(note, 10000);
    });
    connect(&m_controller, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(&m_controller, &RunController::runFailed, this, [this](const QString& message) {
        setRunning(false);
        log(tr("Run failed: %1").arg(message));
        fail(tr("Run failed"), message, nullptr);
        Q_EMIT runFinished(true);
    });
}

bool MainWindow::run()
{
    if (isRunning())
        return false;
    const QStringList problems = m_configPanel->problems();
    if (!problems.isEmpty()) {
        fail(tr("Cannot run"), problems.join('\n'), nullptr);
        return false;
    }
    ExperimentConfig config = m_configPanel->config();
    if (config.distributed)
        return runWithLauncher(config);
    if (config.processes > 1) {
        // The window measures in its own worker thread; synctax-run spreads a run over processes.
        log(tr("%1 asks for %2 processes: the window measures in one; synctax-run spreads the run over them.")
                .arg(QString::fromStdString(config.name))
                .arg(config.processes));
        config.processes = 1;
    }
    m_results->beginRun(config);
    if (!m_controller.start(config))
        return false;
    log(tr("Run started: %1").arg(QString::fromStdString(config.name)));
    setRunning(true);
    m_progress->setValue(0);
    m_etaLabel->clear();
    return true;
}

void MainWindow::stop()
{
    if (m_launcher->isRunning()) {
        m_launcher->stop();
        m_cellLabel->setText(tr("Stopping: the ranks end together at the end of a round…"));
        return;
    }
    if (!m_controller.isRunning())
        return;
    m_controller.stop();
    m_cellLabel->setText(tr("Stopping after the current step…"));
}

void MainWindow::onProgress(double fraction, const QString& cell, double elapsedS, double remainingS)
{
    constexpr int steps = 1000;
    m_progress->setMaximum(steps);
    m_progress->setValue(int(std::clamp(fraction, 0.0, 1.0) * steps));
    m_cellLabel->setText(cell);
    if (remainingS > 0) {
        // Each model counts the smaller of its time budget and its blocks at the pace so far.
        m_etaLabel->setText(tr("%1 elapsed, about %2 left").arg(durationText(elapsedS), durationText(remainingS)));
    } else {
        m_etaLabel->setText(tr("%1 elapsed").arg(durationText(elapsedS)));
    }
}

void MainWindow::onRunFinished(bool stopped)
{
    setRunning(false);
    showResult(m_controller.result());
    m_results->refreshSteps();
    m_progress->setValue(m_progress->maximum());
    const double durationS = m_results->result().durationS;
    const QString what = stopped ? tr("Run stopped after %1; partial results kept").arg(durationText(durationS))
                                 : tr("Run finished in %1").arg(durationText(durationS));
    m_cellLabel->setText(what);
    log(what);
    autosave();
    Q_EMIT runFinished(stopped);
}

void setApplicationIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("SyncTax"));
    QCoreApplication::setOrganizationName(QStringLiteral("SyncTax"));
}

QString MainWindow::runsFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/runs");
}

void MainWindow::autosave()
{
    // Every run is kept, finished or stopped, so closing the window never loses measurements.
    const QString dir = runsFolder() + QStringLiteral("/")
        + QString::fromStdString(formatTimestamp(std::chrono::system_clock::now(), TimestampStyle::FolderName));
    if (!QDir().mkpath(dir))
        return log(tr("Could not create %1 to keep the run").arg(dir));
    QString error;
    if (saveResults(dir + QStringLiteral("/results.json"), &error)) {
        m_lastSavedRun = dir + QStringLiteral("/results.json");
        log(tr("Results kept in %1").arg(m_lastSavedRun));
    }
}

void MainWindow::setRunning(bool running)
{
    m_runAction->setEnabled(!running);
    m_stopAction->setEnabled(running);
    m_configPanel->setRunning(running);
    m_progress->setVisible(running || m_progress->value() > 0);
    updateStartPage();
}

void MainWindow::updateStartPage()
{
    const bool somethingToShow = isRunning() || !m_results->result().cells.empty();
    m_central->setCurrentWidget(somethingToShow ? static_cast<QWidget*>(m_results->table()) : m_startPage);
}

void MainWindow::showResult(const ExperimentResult& result)
{
    m_results->showResult(result, m_controller.isRunning() ? &m_controller.history() : nullptr);
    updateStartPage();
}

bool MainWindow::openConfig(const QString& path, QString* error)
{
    const ConfigLoadResult loaded = loadConfigFile(path.toStdString());
    if (!loaded.config) {
        fail(tr("Cannot open experiment"), QString::fromStdString(formatErrors(loaded.errors)).trimmed(), error);
        return false;
    }
    m_configPanel->setConfig(*loaded.config);
    m_configPath = path;
    addRecentFile(path);
    log(tr("Opened experiment %1").arg(path));
    return true;
}

bool MainWindow::saveConfig(const QString& path, QString* error)
{
    QFile file(path);
    const QByteArray yaml = QByteArray::fromStdString(toYaml(m_configPanel->config()));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(yaml) != yaml.size()) {
        fail(tr("Cannot save experiment"), tr("%1: %2").arg(path, file.errorString()), error);
        return false;
    }
    m_configPath = path;
    addRecentFile(path);
    return true;
}

bool MainWindow::openResults(const QString& path, QString* error)
{
    // Opening a file replaces what is on screen: a run in progress stops first, and keeps what it measured.
    if (m_launcher->isRunning()) {
        fail(tr("Cannot open results"), tr("a data-parallel run is in progress: stop it first"), error);
        return false;
    }
    if (m_controller.isRunning()) {
        m_controller.stopAndWait();
        if (m_controller.isRunning())
            return false;
    }
    const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
    if (!loaded.result) {
        fail(tr("Cannot open results"), QString::fromStdString(formatErrors(loaded.errors)).trimmed(), error);
        return false;
    }
    m_controller.clear();
    m_results->showResultsFile(*loaded.result, path, resultsFolderOf(path));
    updateStartPage();
    const ExperimentResult& shown = m_results->result();
    m_configPanel->setConfig(shown.config);
    addRecentFile(path);
    setWindowTitle(QStringLiteral("SyncTax — %1").arg(QFileInfo(path).fileName()));
    log(tr("Opened results %1 (%2, %3)")
            .arg(path,
                QString::fromStdString(
                    shown.environment.deviceName.empty() ? shown.environment.device : shown.environment.deviceName),
                QString::fromStdString(shown.startedAt)));
    return true;
}

DiffDialog* MainWindow::compareWith(const QString& path, QString* error)
{
    const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
    if (!loaded.result) {
        fail(tr("Cannot compare"), QString::fromStdString(formatErrors(loaded.errors)).trimmed(), error);
        return nullptr;
    }
    const QString shownName = m_results->resultName();
    auto* dialog = new DiffDialog(
        m_results->result(), shownName.isEmpty() ? tr("the results on screen") : shownName, *loaded.result, path, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    log(tr("Compared with %1").arg(path));
    return dialog;
}

bool MainWindow::saveResults(const QString& path, QString* error)
{
    try {
        writeJsonFileAtomically(path.toStdString(), toJson(m_results->result()));
    } catch (const std::exception& e) {
        fail(tr("Cannot save results"), QString::fromStdString(e.what()), error);
        return false;
    }
    return true;
}

bool MainWindow::exportAll(const QString& dir, QStringList* written, QString* error)
{
    if (followPageShown()) {
        QString why;
        if (!m_followView->exportAll(dir, written, &why)) {
            fail(tr("Cannot export"), why, error);
            return false;
        }
        log(tr("Exported %1 files to %2").arg(written ? written->size() : 0).arg(dir));
        return true;
    }
    if (!QDir().mkpath(dir)) {
        fail(tr("Cannot export"), tr("%1: cannot create the folder").arg(dir), error);
        return false;
    }
    QStringList files;
    QString why;
    if (!m_results->exportCharts(dir, &files, &why)) {
        fail(tr("Cannot export"), why, error);
        return false;
    }
    // The same results.json, summary.csv, steps.csv and trace as synctax-run writes
    // (docs/results-schema.md); steps only for a run made here, a results file holds none.
    const bool hasSteps = m_controller.history().totalSteps() > 0;
    const std::vector<StepRecord> steps = hasSteps ? m_controller.history().records() : std::vector<StepRecord>();
    RunOutputs outputs { m_results->result(), &steps, &m_controller.history().cells(), hasSteps };
    if (hasSteps)
        outputs.tracePath = QDir(dir).filePath(QString::fromLatin1(traceFileName)).toStdString();
    try {
        for (const std::string& path : writeRunOutputs(dir.toStdString(), outputs))
            files << QString::fromStdString(path);
    } catch (const std::exception& e) {
        fail(tr("Cannot export"), QString::fromStdString(e.what()), error);
        return false;
    }
    log(tr("Exported %1 files to %2").arg(files.size()).arg(dir));
    if (written)
        *written = files;
    return true;
}

bool MainWindow::loadPreset(const QString& name)
{
    const auto text = presetText(name.toStdString());
    if (!text)
        return false;
    const ConfigLoadResult loaded = loadConfigText(*text, name.toStdString() + ".yaml");
    if (!loaded.config)
        return false;
    m_configPanel->setConfig(*loaded.config);
    m_configPath.clear();
    if (m_startPage)
        m_startPage->setCurrentPreset(name);
    return true;
}

void MainWindow::openAny(const QString& path)
{
    if (isLiveProbeFolder(path))
        followRun(path);
    else if (isProbeRunFolder(path))
        openTraces({ path });
    else if (const std::string why = notARunFolder(path.toStdString()); !why.empty())
        fail(tr("Cannot open folder"), QString::fromStdString(why), nullptr);
    else if (opensAsResults(path))
        openResults(path);
    else
        openConfig(path);
}

void MainWindow::readSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_layoutRestored = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    // The user's own models first, unchecked: the last experiment then checks those it ran.
    const QString own = settings.value(QStringLiteral("ownModels")).toString();
    if (!own.isEmpty()) {
        const ConfigLoadResult loaded = loadConfigText(own.toStdString(), "own models", ModelFiles::NotChecked);
        if (loaded.config) {
            for (const ModelSpec& model : loaded.config->models)
                m_configPanel->addOwnModel(model, false);
        }
    }
    const QString yaml = settings.value(QStringLiteral("lastConfig")).toString();
    if (!yaml.isEmpty()) {
        const ConfigLoadResult loaded = loadConfigText(yaml.toStdString(), "last experiment", ModelFiles::NotChecked);
        if (loaded.config) {
            m_configPanel->setConfig(*loaded.config);
            m_startPage->setCurrentPreset(QString::fromStdString(loaded.config->name));
        }
    }
    updateRecentMenu();
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("lastConfig"), QString::fromStdString(toYaml(m_configPanel->config())));
    ExperimentConfig own;
    own.models = m_configPanel->ownModels();
    own.styles = { StyleSpec { "none", 0 } };
    settings.setValue(
        QStringLiteral("ownModels"), own.models.empty() ? QString() : QString::fromStdString(toYaml(own)));
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_layoutRestored)
        return;
    m_layoutRestored = true;
    m_results->sizeDocks();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // A run in progress stops within one step; its partial result is kept like any other run's.
    m_controller.stopAndWait();
    m_launcher->stopAndWait();
    if (m_restoreSettings)
        writeSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (acceptsDrop(event->mimeData()->urls()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    if (openDropped(event->mimeData()->urls()))
        event->acceptProposedAction();
    else
        event->ignore();
}

bool MainWindow::openDropped(const QList<QUrl>& urls)
{
    if (!acceptsDrop(urls))
        return false;
    // A probe's folder still being written is followed; traces dropped together are the ranks of
    // one job; a results file or an experiment opens alone.
    for (const QUrl& url : urls) {
        if (isLiveProbeFolder(url.toLocalFile()))
            return followRun(url.toLocalFile());
    }
    QStringList traces;
    for (const QUrl& url : urls) {
        if (looksLikeKinetoTrace(url.toLocalFile()) || isProbeRunFolder(url.toLocalFile()))
            traces << url.toLocalFile();
    }
    if (!traces.isEmpty())
        openTraces(traces);
    else
        openAny(urls.first().toLocalFile());
    return true;
}

void MainWindow::log(const QString& line)
{
    m_log->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss  ")) + line);
}

void MainWindow::fail(const QString& title, const QString& message, QString* error)
{
    if (error)
        *error = message;
    log(title + QStringLiteral(": ") + message);
    if (!m_quiet)
        QMessageBox::warning(this, title, message);
}

} // namespace synctax
