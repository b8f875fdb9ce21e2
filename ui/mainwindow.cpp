#include "ui/mainwindow.h"

#include "core/config/configloader.h"
#include "core/config/configwriter.h"
#include "core/config/presets.h"
#include "core/probe/probefolder.h"
#include "core/results/ranktable.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/results/runoutputs.h"
#include "core/results/stepcsvreader.h"
#include "core/results/sweeptable.h"
#include "core/text/format.h"
#include "ui/charts/hostworktaxchart.h"
#include "ui/charts/overheadchart.h"
#include "ui/charts/queuechart.h"
#include "ui/charts/stepchart.h"
#include "ui/configpanel.h"
#include "ui/follow/followview.h"
#include "ui/launcherrun.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/comparisonview.h"
#include "ui/results/diffdialog.h"
#include "ui/results/explanationpanel.h"
#include "ui/results/ranksmodel.h"
#include "ui/results/ranksview.h"
#include "ui/results/reportwriter.h"
#include "ui/startpage.h"
#include "ui/teach/teachview.h"
#include "ui/trace/tracefiles.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
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
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <optional>

namespace synctax {

namespace {

constexpr int maxRecentFiles = 8;

QString joinedErrors(const std::vector<ConfigError>& errors)
{
    QStringList lines;
    for (const auto& e : errors)
        lines << QString::fromStdString(e.format());
    return lines.join('\n');
}

QString durationText(double seconds) { return QString::fromStdString(formatDuration(seconds)); }

// A group as the Model box holds it: model, mode, host work (µs) and batch.
QStringList groupData(const GroupKey& g)
{
    return { QString::fromStdString(g.model), QString::fromStdString(g.mode), QString::number(g.hostWorkUs),
        QString::number(g.batch) };
}

std::optional<GroupKey> groupOfData(const QVariant& data)
{
    const QStringList g = data.toStringList();
    if (g.size() != 4)
        return std::nullopt;
    return GroupKey { g[0].toStdString(), g[1].toStdString(), g[2].toLongLong(), g[3].toLongLong() };
}

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
    m_comparison = new ComparisonModel(this);
    m_table = new ComparisonView(this);
    m_table->setObjectName(QStringLiteral("comparisonView"));
    m_table->setComparisonModel(m_comparison);
    m_central = new QStackedWidget(this);
    m_central->addWidget(m_table);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    m_pages->setTabBarAutoHide(true); // one page until a trace is opened: no tab bar
    m_pages->addTab(m_central, tr("Experiment"));
    setCentralWidget(m_pages);
    connect(m_pages, &QTabWidget::currentChanged, this, &MainWindow::hideDocksForPage);
    createTraceViews();

    auto dock = [this](QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    m_configPanel = new ConfigPanel(this);
    dock(m_configPanel, tr("Experiment"), QStringLiteral("experimentDock"), Qt::LeftDockWidgetArea);

    m_overheadChart = new OverheadChart(this);
    // The least room in which every style's label stays whole (tst_charts checks it).
    m_overheadChart->setMinimumSize(560, 340);
    auto* overheadDock = dock(m_overheadChart, tr("Overhead"), QStringLiteral("overheadDock"), Qt::RightDockWidgetArea);
    // Beside the overhead chart, shown only for a run that swept host work (showResult).
    m_hostWorkTaxChart = new HostWorkTaxChart(this);
    m_hostWorkTaxChart->setMinimumSize(560, 340);
    m_hostWorkTaxDock
        = dock(m_hostWorkTaxChart, tr("Tax vs host work"), QStringLiteral("hostWorkTaxDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(overheadDock, m_hostWorkTaxDock);
    overheadDock->raise();
    m_hostWorkTaxDock->hide();
    m_explanation = new ExplanationPanel(this);
    dock(m_explanation, tr("Explanation"), QStringLiteral("explanationDock"), Qt::RightDockWidgetArea);

    m_stepChart = new StepChart(this);
    // No history until a run starts: the per-step charts say what shows there and how.
    m_stepChart->setHistory(nullptr);
    m_stepChart->setNoHistoryText(tr("No run yet: press Run to see the time of every step here."));
    m_stepChart->setMinimumHeight(240);
    auto* stepDock = dock(m_stepChart, tr("Step time"), QStringLiteral("stepDock"), Qt::BottomDockWidgetArea);
    m_queueChart = new QueueChart(this);
    m_queueChart->setHistory(nullptr, &m_shown.config);
    m_queueChart->setNoHistoryText(tr("No run yet: press Run to see how far the host runs ahead of the GPU."));
    m_queueChart->setMinimumHeight(240);
    auto* queueDock = dock(m_queueChart, tr("Queue"), QStringLiteral("queueDock"), Qt::BottomDockWidgetArea);
    splitDockWidget(stepDock, queueDock, Qt::Horizontal);

    m_log = new QPlainTextEdit(this);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    auto* logDock = dock(m_log, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(queueDock, logDock);
    queueDock->raise();
    // Beside the queue, shown only for a data-parallel run's results (updateRanks).
    m_ranks = new RanksModel(this);
    m_ranksView = new RanksView(this);
    m_ranksView->setRanksModel(m_ranks);
    m_ranksDock = dock(m_ranksView, tr("Ranks"), QStringLiteral("ranksDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(queueDock, m_ranksDock);
    m_ranksDock->hide();

    connect(m_table, &ComparisonView::cellSelected, this,
        [this](const GroupKey& group, const QString& style) { showCell(group, style); });
    connect(m_table, &ComparisonView::groupSelected, this, [this](const GroupKey& group) {
        const int index = m_groupBox->findData(groupData(group));
        if (index >= 0 && index != m_groupBox->currentIndex()) {
            m_followRun = false;
            m_groupBox->setCurrentIndex(index);
        }
    });
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

bool MainWindow::showCell(const QString& model, const QString& mode, const QString& style)
{
    for (int i = 0; i < m_groupBox->count(); ++i) {
        const std::optional<GroupKey> group = groupOfData(m_groupBox->itemData(i));
        if (group && QString::fromStdString(group->model) == model && QString::fromStdString(group->mode) == mode)
            return showCell(*group, style);
    }
    return false;
}

bool MainWindow::showCell(const GroupKey& group, const QString& style)
{
    const int index = m_groupBox->findData(groupData(group));
    if (index < 0)
        return false;
    m_followRun = false;
    m_groupBox->setCurrentIndex(index);
    // A data-parallel run's stall chart shows the same cell.
    const bool ranked = m_ranksView->selectCell(group, style.toStdString());
    // The steps on screen (the step chart's): the run's in this window, or those read beside an opened
    // results file.
    const RunHistory* shown = m_stepChart->history();
    if (!shown)
        return ranked;
    for (const CellPlan& c : shown->cells()) {
        if (groupKeyOf(c) == group && QString::fromStdString(c.style) == style) {
            m_queueChart->setCell(int(c.index));
            m_queueChart->refresh();
            return true;
        }
    }
    return ranked;
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    auto* openConfigAction = file->addAction(tr("&Open Experiment…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open experiment"), QFileInfo(m_configPath).path(), tr("Experiments (*.yaml *.yml)"));
        if (!path.isEmpty())
            openConfig(path);
    });
    openConfigAction->setShortcut(QKeySequence::Open);
    auto* saveConfigAction = file->addAction(tr("&Save Experiment…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save experiment"),
            m_configPath.isEmpty() ? QStringLiteral("experiment.yaml") : m_configPath,
            tr("Experiments (*.yaml *.yml)"));
        if (!path.isEmpty())
            saveConfig(path);
    });
    saveConfigAction->setShortcut(QKeySequence::Save);
    auto* ownModelAction
        = file->addAction(tr("Add Your &Own Model…"), m_configPanel, [this] { m_configPanel->chooseOwnModel(); });
    ownModelAction->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    ownModelAction->setToolTip(tr("Measure every logging style on your network, saved as a TorchScript file"));
    file->addSeparator();
    auto* openResultsAction = file->addAction(tr("Open &Results…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open results"), QString(), tr("Results (*.json *.json.gz *.jsonl)"));
        if (!path.isEmpty())
            openResults(path);
    });
    openResultsAction->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    m_openResultsAction = openResultsAction;
    auto* openTraceAction = file->addAction(tr("Open &Trace…"), this, [this] {
        const QStringList paths
            = QFileDialog::getOpenFileNames(this, tr("Open PyTorch profiler trace (several: the ranks of one job)"),
                QString(), tr("PyTorch profiler traces (*.json *.json.gz);;All files (*)"));
        openTraces(paths);
    });
    openTraceAction->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    openTraceAction->setObjectName(QStringLiteral("openTraceAction"));
    openTraceAction->setToolTip(tr("A trace recorded with torch.profiler: what its syncs cost, per step and per site"));
    auto* watchAction = file->addAction(tr("&Watch Trace Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Watch folder for profiler traces"));
        if (!dir.isEmpty())
            watchTraceFolder(dir);
    });
    watchAction->setShortcut(QKeySequence(tr("Ctrl+Shift+W")));
    watchAction->setObjectName(QStringLiteral("watchTraceAction"));
    auto* followAction = file->addAction(tr("&Follow Training Run…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Follow a training job: the folder python3 -m synctax_probe writes (--out)"));
        if (!dir.isEmpty())
            followRun(dir);
    });
    followAction->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    followAction->setObjectName(QStringLiteral("followRunAction"));
    followAction->setToolTip(tr("Watch a training job's probe folder as it grows: its step times, where it waits "
                                "for syncs, the tax its A/B measures and the what-if, live"));
    auto* saveResultsAction = file->addAction(tr("Save R&esults…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save results"), QStringLiteral("results.json"), tr("Results (*.json)"));
        if (!path.isEmpty())
            saveResults(path);
    });
    saveResultsAction->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    file->addSeparator();
    auto* exportAction = file->addAction(tr("&Export Charts, Report and Data…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export into folder"));
        if (dir.isEmpty())
            return;
        QStringList written;
        if (exportAll(dir, &written))
            statusBar()->showMessage(tr("Exported %1 files to %2").arg(written.size()).arg(dir), 10000);
    });
    exportAction->setShortcut(QKeySequence(tr("Ctrl+E")));
    exportAction->setObjectName(QStringLiteral("exportAction"));
    auto* exportTraceAction = file->addAction(tr("Export Trace &Tables…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export trace tables into folder"));
        if (dir.isEmpty())
            return;
        QStringList written;
        if (exportTrace(dir, &written))
            statusBar()->showMessage(tr("Exported %1 files to %2").arg(written.size()).arg(dir), 10000);
    });
    exportTraceAction->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    exportTraceAction->setObjectName(QStringLiteral("exportTraceAction"));
    auto* compareAction = file->addAction(tr("&Compare With Results…"), this, [this] {
        // A followed run compares with another run folder of the same loop (before and after a change).
        if (followPageShown()) {
            compareFollowedRun();
            return;
        }
        const QString path
            = QFileDialog::getOpenFileName(this, tr("Compare with"), QString(), tr("Results (*.json *.json.gz)"));
        if (!path.isEmpty())
            compareWith(path);
    });
    compareAction->setShortcut(QKeySequence(tr("Ctrl+D")));
    m_recentMenu = file->addMenu(tr("Recent &Files"));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    for (const std::string& name : presetNames()) {
        const QString qname = QString::fromStdString(name);
        presets->addAction(qname, this, [this, qname] { loadPreset(qname); });
    }

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    m_runAction = runMenu->addAction(tr("&Run"), this, &MainWindow::run);
    m_runAction->setShortcut(QKeySequence(tr("Ctrl+R")));
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_stopAction = runMenu->addAction(tr("&Stop"), this, &MainWindow::stop);
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_startPage = new StartPage(m_runAction, m_openResultsAction, this);
    connect(m_startPage, &StartPage::presetChosen, this, &MainWindow::loadPreset);
    m_central->insertWidget(0, m_startPage);
    m_central->setCurrentWidget(m_startPage);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    auto* predictions = m_viewMenu->addAction(tr("Show &Predictions"));
    predictions->setCheckable(true);
    predictions->setShortcut(QKeySequence(tr("Ctrl+P")));
    predictions->setObjectName(QStringLiteral("predictionsAction"));
    predictions->setToolTip(tr("Beside each measured overhead, what the queue model predicts from D, G, L, K and H"));
    connect(predictions, &QAction::toggled, m_comparison, &ComparisonModel::setShowPredictions);
    auto* whatIf = m_viewMenu->addAction(tr("What If: &Host Work"), this, &MainWindow::focusTraceWhatIf);
    whatIf->setShortcut(QKeySequence(tr("Ctrl+Shift+H")));
    whatIf->setObjectName(QStringLiteral("whatIfAction"));
    whatIf->setToolTip(tr("The Trace page's host-work slider: each style's tax if data loading took longer"));
    m_viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        m_viewMenu->addAction(d->toggleViewAction());

    QMenu* teach = menuBar()->addMenu(tr("&Teach"));
    const auto showTeach = [this] {
        teachView()->show();
        teachView()->raise();
        teachView()->activateWindow();
    };
    auto* teachAction = teach->addAction(tr("&Queue Simulator…"), this, showTeach);
    teachAction->setShortcut(QKeySequence(tr("Ctrl+T")));
    teachAction->setToolTip(tr("Why the tax is self-limiting, and where it is not: a simulated loop, no GPU needed"));
    auto* sequenceAction = teach->addAction(tr("Load &Launch Sequence…"), this, [this, showTeach] {
        showTeach();
        teachView()->chooseLaunchSequence();
    });
    sequenceAction->setShortcut(QKeySequence(tr("Ctrl+L")));
    sequenceAction->setToolTip(tr("The queue simulator replaying a real step of a PyTorch-profiler trace"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About SyncTax"), this, [this] {
        QMessageBox::about(this, tr("About SyncTax"),
            tr("<b>SyncTax</b><p>What does <tt>loss.item()</tt>, a progress bar or per-step logging really cost "
               "in a training loop, and why? SyncTax measures each logging style against the same loop without "
               "it, in interleaved rounds, with 95% confidence intervals and an A/A noise floor.</p>"));
    });

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->addAction(m_runAction);
    bar->addAction(m_stopAction);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Model: "), this));
    m_groupBox = new QComboBox(this);
    m_groupBox->setObjectName(QStringLiteral("groupBox"));
    m_groupBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_groupBox->setPlaceholderText(tr("(no run yet)"));
    m_groupBox->setEnabled(false);
    m_groupBox->setToolTip(tr("The model (and mode) shown by the step-time chart and the explanation"));
    bar->addWidget(m_groupBox);
    connect(m_groupBox, QOverload<int>::of(&QComboBox::activated), this, [this](int index) {
        m_followRun = false;
        selectGroup(index);
    });
    connect(m_groupBox, QOverload<int>::of(&QComboBox::currentIndexChanged), this, &MainWindow::selectGroup);
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
        m_followRun = true;
        m_fileSteps.clear();
        m_stepChart->setHistory(&m_controller.history());
        m_queueChart->setHistory(&m_controller.history(), &m_shown.config);
        m_shown = m_controller.result();
        showResult(m_shown);
    });
    connect(&m_controller, &RunController::stepsAvailable, this, [this] {
        // Once per drain: each chart replaces its series at most once.
        if (m_followRun && m_controller.history().lastCell() >= 0) {
            const CellPlan& cell = m_controller.history().cells()[size_t(m_controller.history().lastCell())];
            const int index = m_groupBox->findData(groupData(groupKeyOf(cell)));
            if (index >= 0 && index != m_groupBox->currentIndex())
                m_groupBox->setCurrentIndex(index);
        }
        m_stepChart->refresh();
        m_queueChart->refresh();
    });
    connect(&m_controller, &RunController::resultAvailable, this, [this] {
        m_shown = m_controller.result();
        showResult(m_shown);
    });
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
    m_shownName = tr("the run of %1 made here").arg(QString::fromStdString(config.name));
    m_ranksView->setResultsFolder(QString());
    m_shown = ExperimentResult {};
    m_shown.config = config;
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
    m_shown = m_controller.result();
    showResult(m_shown);
    m_stepChart->refresh();
    m_queueChart->refresh();
    m_progress->setValue(m_progress->maximum());
    const QString what = stopped ? tr("Run stopped after %1; partial results kept").arg(durationText(m_shown.durationS))
                                 : tr("Run finished in %1").arg(durationText(m_shown.durationS));
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
    const bool somethingToShow = isRunning() || !m_shown.cells.empty();
    m_central->setCurrentWidget(somethingToShow ? static_cast<QWidget*>(m_table) : m_startPage);
}

void MainWindow::showResult(const ExperimentResult& result)
{
    m_comparison->setResult(result);
    m_overheadChart->setResult(result);
    updateHostWorkTax(result);
    updateRanks(result);
    m_explanation->setResult(result);
    updateGroups();
    updateStartPage();
}

void MainWindow::updateGroups()
{
    std::vector<GroupKey> groups;
    auto add = [&](const GroupKey& g) {
        if (std::find(groups.begin(), groups.end(), g) == groups.end())
            groups.push_back(g);
    };
    if (m_controller.isRunning()) {
        for (const CellPlan& c : m_controller.history().cells())
            add(groupKeyOf(c));
    }
    for (const CellResult& c : m_shown.cells)
        add(groupKeyOf(c));
    const SweptKeys swept = sweptKeys(m_shown.config);
    QList<std::pair<QString, QStringList>> items;
    for (const GroupKey& g : groups) {
        const QString model = QString::fromStdString(g.model + sweepPointSuffix(swept, g));
        items.append({ g.mode == "eager" ? model : QStringLiteral("%1 (%2)").arg(model, QString::fromStdString(g.mode)),
            groupData(g) });
    }
    bool same = items.size() == m_groupBox->count();
    for (int i = 0; same && i < items.size(); ++i)
        same = m_groupBox->itemText(i) == items[i].first && m_groupBox->itemData(i).toStringList() == items[i].second;
    if (same)
        return;
    const QVariant current = m_groupBox->currentData();
    QSignalBlocker block(m_groupBox);
    m_groupBox->clear();
    for (const auto& [text, data] : items)
        m_groupBox->addItem(text, data);
    const int index = std::max(0, m_groupBox->findData(current));
    m_groupBox->setCurrentIndex(index);
    m_groupBox->setEnabled(m_groupBox->count() > 0);
    selectGroup(index);
}

void MainWindow::selectGroup(int index)
{
    const std::optional<GroupKey> group = groupOfData(m_groupBox->itemData(index));
    if (!group)
        return;
    m_stepChart->setGroup(*group, m_groupBox->itemText(index));
    m_explanation->setGroup(*group);
    m_stepChart->refresh();
}

void MainWindow::updateHostWorkTax(const ExperimentResult& result)
{
    m_hostWorkTaxChart->setResult(result);
    const bool swept = HostWorkTaxChart::hasCurves(result);
    // Shown once when a result first has a sweep, so that it is seen; hidden again for one without.
    if (swept && m_hostWorkTaxDock->isHidden()) {
        m_hostWorkTaxDock->show();
        // Raised once the dock's tab exists: a window not shown yet (a file opened at start) has none.
        QTimer::singleShot(0, m_hostWorkTaxDock, [dock = m_hostWorkTaxDock] { dock->raise(); });
    } else if (!swept) {
        m_hostWorkTaxDock->hide();
    }
}

void MainWindow::updateRanks(const ExperimentResult& result)
{
    m_ranks->setResult(result);
    if (m_ranks->hasRanks() && m_ranksDock->isHidden()) {
        m_ranksDock->show();
        // As for the host-work dock: raised once its tab exists; wide enough for two ranks' columns
        // (the step chart beside it has nothing to show for a results file).
        QTimer::singleShot(0, m_ranksDock, [this] {
            m_ranksDock->raise();
            resizeDocks({ m_ranksDock }, { width() * 3 / 5 }, Qt::Horizontal);
            // And tall enough for the table and the stall chart under it.
            resizeDocks({ m_ranksDock }, { height() / 2 }, Qt::Vertical);
        });
    } else if (!m_ranks->hasRanks()) {
        m_ranksDock->hide();
    }
}

bool MainWindow::openConfig(const QString& path, QString* error)
{
    const ConfigLoadResult loaded = loadConfigFile(path.toStdString());
    if (!loaded.config) {
        fail(tr("Cannot open experiment"), joinedErrors(loaded.errors), error);
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

void MainWindow::showStepsBeside(const QString& resultsPath)
{
    m_fileSteps.clear();
    const QString dir = resultsFolderOf(resultsPath);
    QString csv = QDir(dir).filePath(QStringLiteral("steps.csv"));
    QString who;
    if (m_shown.distributed) {
        const auto& ranks = m_shown.distributed->ranks;
        const auto rank0 = std::find_if(ranks.begin(), ranks.end(), [](const RankOutcome& r) { return r.rank == 0; });
        if (rank0 != ranks.end()) {
            csv = QString::fromStdString(rankStepsPath(dir.toStdString(), *rank0));
            who = tr("rank 0's ");
        }
    }
    QString noSteps;
    if (!QFileInfo::exists(csv)) {
        // Results files hold blocks, not steps: the per-step charts say so instead of waiting for data.
        noSteps = tr("No steps.csv beside this results file: per-step times show while a run is measured here, "
                     "or from the steps.csv synctax-run writes beside its results.json.");
    } else if (const StepsCsvLoadResult loaded = loadStepsCsvFile(csv.toStdString()); !loaded.steps) {
        noSteps = tr("%1steps.csv could not be read: %2").arg(who, joinedErrors(loaded.errors));
        log(noSteps);
    } else {
        m_fileSteps.reset(loaded.steps->cells, 0);
        const size_t kept = m_fileSteps.append(loaded.steps->records);
        log(tr("Read %1 measured steps from %2steps.csv (%3)").arg(kept).arg(who, csv));
        m_stepChart->setHistory(&m_fileSteps);
        m_queueChart->setHistory(&m_fileSteps, &m_shown.config);
        if (kept == 0)
            noSteps = tr("%1steps.csv has no measured steps (only warm-up rounds).").arg(who);
    }
    m_stepChart->setNoHistoryText(noSteps);
    m_queueChart->setNoHistoryText(noSteps);
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
        fail(tr("Cannot open results"), joinedErrors(loaded.errors), error);
        return false;
    }
    m_controller.clear();
    m_shownName = path;
    m_stepChart->setHistory(nullptr);
    m_queueChart->setHistory(nullptr, &m_shown.config);
    m_shown = *loaded.result;
    m_followRun = false;
    showStepsBeside(path);
    // A data-parallel run's ranks wrote their steps.csv into folders beside its results.json.
    m_ranksView->setResultsFolder(resultsFolderOf(path));
    showResult(m_shown);
    m_configPanel->setConfig(m_shown.config);
    addRecentFile(path);
    setWindowTitle(QStringLiteral("SyncTax — %1").arg(QFileInfo(path).fileName()));
    log(tr("Opened results %1 (%2, %3)")
            .arg(path,
                QString::fromStdString(m_shown.environment.deviceName.empty() ? m_shown.environment.device
                                                                              : m_shown.environment.deviceName),
                QString::fromStdString(m_shown.startedAt)));
    return true;
}

DiffDialog* MainWindow::compareWith(const QString& path, QString* error)
{
    const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
    if (!loaded.result) {
        fail(tr("Cannot compare"), joinedErrors(loaded.errors), error);
        return nullptr;
    }
    auto* dialog = new DiffDialog(
        m_shown, m_shownName.isEmpty() ? tr("the results on screen") : m_shownName, *loaded.result, path, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    log(tr("Compared with %1").arg(path));
    return dialog;
}

bool MainWindow::saveResults(const QString& path, QString* error)
{
    try {
        writeJsonFileAtomically(path.toStdString(), toJson(m_shown));
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
    const QDir out(dir);
    std::vector<std::pair<const char*, ChartPanel*>> charts
        = { { "overhead", m_overheadChart }, { "step-time", m_stepChart }, { "queue", m_queueChart } };
    const std::string sweepTables = formatSweepTables(m_shown);
    if (!sweepTables.empty())
        charts.emplace_back("tax-vs-host-work", m_hostWorkTaxChart);
    for (const auto& [name, chart] : charts) {
        const QString base = out.filePath(QString::fromLatin1(name));
        if (!chart->exportPng(base + QStringLiteral(".png")) || !chart->exportSvg(base + QStringLiteral(".svg"))
            || !chart->exportPdf(base + QStringLiteral(".pdf"))) {
            fail(
                tr("Cannot export"), tr("%1: could not write the %2 chart").arg(dir, QString::fromLatin1(name)), error);
            return false;
        }
        files << base + QStringLiteral(".png") << base + QStringLiteral(".svg") << base + QStringLiteral(".pdf");
    }
    QString why;
    const QString report = out.filePath(QStringLiteral("report.pdf"));
    if (!writeReportPdf(report, m_shown, m_overheadChart->renderImage(QSize(900, 520), 2.0), &why)) {
        fail(tr("Cannot export"), why, error);
        return false;
    }
    files << report;
    // The runner's tables after its table, as text: the curve's numbers beside its chart, and a
    // data-parallel run's cells rank by rank. Each starts with a blank line, not kept in the file.
    const std::pair<const char*, std::string> tables[]
        = { { "tax-vs-host-work.txt", sweepTables }, { "ranks.txt", formatRankTable(m_shown) } };
    for (const auto& [name, text] : tables) {
        if (text.empty())
            continue;
        const QString path = out.filePath(QString::fromLatin1(name));
        try {
            writeFileAtomically(path.toStdString(), [&text = text](std::ostream& o) { o << text.substr(1); });
        } catch (const std::exception& e) {
            fail(tr("Cannot export"), QString::fromStdString(e.what()), error);
            return false;
        }
        files << path;
    }
    // The same results.json, summary.csv, steps.csv and trace as synctax-run writes
    // (docs/results-schema.md); steps only for a run made here, a results file holds none.
    const bool hasSteps = m_controller.history().totalSteps() > 0;
    const std::vector<StepRecord> steps = hasSteps ? m_controller.history().records() : std::vector<StepRecord>();
    RunOutputs outputs { m_shown, &steps, &m_controller.history().cells(), hasSteps };
    if (hasSteps)
        outputs.tracePath = out.filePath(QString::fromLatin1(traceFileName)).toStdString();
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

void MainWindow::addRecentFile(const QString& path)
{
    // A scripted export or screenshot opens files, but the user did not: their settings stay as they are.
    if (!m_restoreSettings)
        return;
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files
        = m_restoreSettings ? QSettings().value(QStringLiteral("recentFiles")).toStringList() : QStringList();
    for (const QString& f : files)
        m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] { openAny(f); })->setToolTip(f);
    m_recentMenu->setEnabled(!files.isEmpty());
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
    // Dock sizes only take once the window has its size: the overhead chart gets room for its labels.
    auto* overhead = findChild<QDockWidget*>(QStringLiteral("overheadDock"));
    auto* explanation = findChild<QDockWidget*>(QStringLiteral("explanationDock"));
    resizeDocks({ overhead }, { int(width() * 0.4) }, Qt::Horizontal);
    auto* step = findChild<QDockWidget*>(QStringLiteral("stepDock"));
    resizeDocks({ step }, { std::max(280, height() / 3) }, Qt::Vertical);
    resizeDocks({ overhead, explanation }, { 2 * height() / 5, height() / 5 }, Qt::Vertical);
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
