// The main window's menus and tool bar: each menu a table of its actions, and the dialogs those
// actions open before they hand a path to the window's other files.
#include "ui/mainwindow.h"

#include "core/config/presets.h"
#include "ui/configpanel.h"
#include "ui/results/comparisonmodel.h"
#include "ui/teach/teachview.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

#include <functional>
#include <vector>

namespace synctax {

namespace {

constexpr int maxRecentFiles = 8;

// One action of a menu: what it says, its key, the object name tests and scripts find it by, its
// tooltip and what it does; `keep`, where the window keeps it. A row with no text is a separator.
struct ActionRow {
    QString text;
    QKeySequence shortcut;
    const char* name = nullptr;
    QString toolTip;
    std::function<void()> handler; // none: the caller connects the action itself
    QAction** keep = nullptr;
};

void addRows(QMenu* menu, QObject* context, const std::vector<ActionRow>& rows)
{
    for (const ActionRow& row : rows) {
        if (row.text.isEmpty()) {
            menu->addSeparator();
            continue;
        }
        QAction* action = menu->addAction(row.text);
        action->setShortcut(row.shortcut);
        if (row.name)
            action->setObjectName(QString::fromLatin1(row.name));
        if (!row.toolTip.isEmpty())
            action->setToolTip(row.toolTip);
        if (row.handler)
            QObject::connect(action, &QAction::triggered, context, row.handler);
        if (row.keep)
            *row.keep = action;
    }
}

} // namespace

void MainWindow::createActions()
{
    createFileMenu();
    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    for (const std::string& name : presetNames()) {
        const QString qname = QString::fromStdString(name);
        presets->addAction(qname, this, [this, qname] { loadPreset(qname); });
    }
    addRows(menuBar()->addMenu(tr("&Run")), this,
        {
            { tr("&Run"), QKeySequence(tr("Ctrl+R")), "runAction", {}, [this] { run(); }, &m_runAction },
            { tr("&Stop"), QKeySequence(Qt::Key_Escape), "stopAction", {}, [this] { stop(); }, &m_stopAction },
        });
    createStartPage(); // it offers Run and Open Results
    createViewMenu();
    addRows(menuBar()->addMenu(tr("&Teach")), this,
        {
            { tr("&Queue Simulator…"), QKeySequence(tr("Ctrl+T")), nullptr,
                tr("Why the tax is self-limiting, and where it is not: a simulated loop, no GPU needed"),
                [this] { showTeachWindow(); } },
            { tr("Load &Launch Sequence…"), QKeySequence(tr("Ctrl+L")), nullptr,
                tr("The queue simulator replaying a real step of a PyTorch-profiler trace"),
                [this] {
                    showTeachWindow();
                    teachView()->chooseLaunchSequence();
                } },
        });
    addRows(
        menuBar()->addMenu(tr("&Help")), this, { { tr("&About SyncTax"), {}, nullptr, {}, [this] { showAbout(); } } });

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->addAction(m_runAction);
    bar->addAction(m_stopAction);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Model: "), this));
    bar->addWidget(m_results->groupBox());
}

void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addRows(file, this,
        {
            { tr("&Open Experiment…"), QKeySequence::Open, nullptr, {}, [this] { chooseConfigToOpen(); } },
            { tr("&Save Experiment…"), QKeySequence::Save, nullptr, {}, [this] { chooseConfigToSave(); } },
            { tr("Add Your &Own Model…"), QKeySequence(tr("Ctrl+Shift+M")), nullptr,
                tr("Measure every logging style on your network, saved as a TorchScript file"),
                [this] { m_configPanel->chooseOwnModel(); } },
            {},
            { tr("Open &Results…"), QKeySequence(tr("Ctrl+Shift+O")), nullptr, {}, [this] { chooseResultsToOpen(); },
                &m_openResultsAction },
            { tr("Open &Trace…"), QKeySequence(tr("Ctrl+Shift+T")), "openTraceAction",
                tr("A trace recorded with torch.profiler: what its syncs cost, per step and per site"),
                [this] { chooseTraces(); } },
            { tr("&Watch Trace Folder…"), QKeySequence(tr("Ctrl+Shift+W")), "watchTraceAction", {},
                [this] { chooseTraceFolder(); } },
            { tr("&Follow Training Run…"), QKeySequence(tr("Ctrl+Shift+F")), "followRunAction",
                tr("Watch a training job's probe folder as it grows: its step times, where it waits for syncs, the "
                   "tax its A/B measures and the what-if, live"),
                [this] { chooseRunToFollow(); } },
            { tr("Save R&esults…"), QKeySequence(tr("Ctrl+Shift+S")), nullptr, {}, [this] { chooseResultsToSave(); } },
            {},
            { tr("&Export Charts, Report and Data…"), QKeySequence(tr("Ctrl+E")), "exportAction", {},
                [this] { chooseExportFolder(); } },
            { tr("Export Trace &Tables…"), QKeySequence(tr("Ctrl+Shift+E")), "exportTraceAction", {},
                [this] { chooseTraceExportFolder(); } },
            { tr("&Compare With Results…"), QKeySequence(tr("Ctrl+D")), nullptr, {}, [this] { chooseComparison(); } },
        });
    m_recentMenu = file->addMenu(tr("Recent &Files"));
    addRows(file, this, { {}, { tr("&Quit"), QKeySequence::Quit, nullptr, {}, [this] { close(); } } });
}

void MainWindow::createViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* predictions = nullptr;
    addRows(view, this,
        {
            { tr("Show &Predictions"), QKeySequence(tr("Ctrl+P")), "predictionsAction",
                tr("Beside each measured overhead, what the queue model predicts from D, G, L, K and H"), {},
                &predictions },
            { tr("What If: &Host Work"), QKeySequence(tr("Ctrl+Shift+H")), "whatIfAction",
                tr("The Trace page's host-work slider: each style's tax if data loading took longer"),
                [this] { focusTraceWhatIf(); } },
            {},
        });
    predictions->setCheckable(true);
    connect(predictions, &QAction::toggled, m_results->comparisonModel(), &ComparisonModel::setShowPredictions);
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
}

void MainWindow::chooseConfigToOpen()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open experiment"), QFileInfo(m_configPath).path(), tr("Experiments (*.yaml *.yml)"));
    if (!path.isEmpty())
        openConfig(path);
}

void MainWindow::chooseConfigToSave()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save experiment"),
        m_configPath.isEmpty() ? QStringLiteral("experiment.yaml") : m_configPath, tr("Experiments (*.yaml *.yml)"));
    if (!path.isEmpty())
        saveConfig(path);
}

void MainWindow::chooseResultsToOpen()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open results"), QString(), tr("Results (*.json *.json.gz *.jsonl)"));
    if (!path.isEmpty())
        openResults(path);
}

void MainWindow::chooseResultsToSave()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save results"), QStringLiteral("results.json"), tr("Results (*.json)"));
    if (!path.isEmpty())
        saveResults(path);
}

void MainWindow::chooseTraces()
{
    openTraces(QFileDialog::getOpenFileNames(this, tr("Open PyTorch profiler trace (several: the ranks of one job)"),
        QString(), tr("PyTorch profiler traces (*.json *.json.gz);;All files (*)")));
}

void MainWindow::chooseTraceFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Watch folder for profiler traces"));
    if (!dir.isEmpty())
        watchTraceFolder(dir);
}

void MainWindow::chooseRunToFollow()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Follow a training job: the folder python3 -m synctax_probe writes (--out)"));
    if (!dir.isEmpty())
        followRun(dir);
}

void MainWindow::chooseExportFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export into folder"));
    QStringList written;
    if (!dir.isEmpty() && exportAll(dir, &written))
        statusBar()->showMessage(tr("Exported %1 files to %2").arg(written.size()).arg(dir), 10000);
}

void MainWindow::chooseTraceExportFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export trace tables into folder"));
    QStringList written;
    if (!dir.isEmpty() && exportTrace(dir, &written))
        statusBar()->showMessage(tr("Exported %1 files to %2").arg(written.size()).arg(dir), 10000);
}

void MainWindow::chooseComparison()
{
    // A followed run compares with another run folder of the same loop (before and after a change).
    if (followPageShown()) {
        compareFollowedRun();
        return;
    }
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Compare with"), QString(), tr("Results (*.json *.json.gz)"));
    if (!path.isEmpty())
        compareWith(path);
}

void MainWindow::showTeachWindow()
{
    teachView()->show();
    teachView()->raise();
    teachView()->activateWindow();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About SyncTax"),
        tr("<b>SyncTax</b><p>What does <tt>loss.item()</tt>, a progress bar or per-step logging really cost "
           "in a training loop, and why? SyncTax measures each logging style against the same loop without "
           "it, in interleaved rounds, with 95% confidence intervals and an A/A noise floor.</p>"));
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

} // namespace synctax
