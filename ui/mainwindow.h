#pragma once

#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"
#include "ui/results/resultspage.h"
#include "ui/runcontroller.h"
#include "ui/trace/tracefile.h"

#include <QMainWindow>
#include <QStringList>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QUrl;

namespace synctax {

class ComparisonModel;
class ComparisonView;
class DiffDialog;
class ConfigPanel;
class FollowView;
class ExplanationPanel;
class HostWorkTaxChart;
class LauncherRun;
class QueueChart;
class RanksModel;
class RanksView;
class StartPage;
class StepChart;
class TeachView;
class TraceFolderWatcher;
class TraceLoader;
class TraceView;

// The application and organisation names: they place the settings file and the runs folder.
void setApplicationIdentity();

// The app's window: the experiment panel on the left, the comparison table in the middle, the
// charts and the explanation in docks around it. It shows either the run in progress (live) or
// a finished run, from this session or from a results file recorded elsewhere. The window wires
// the parts together; each part fills its own views: the results page (ui/results/resultspage.h),
// the Trace page (ui/trace), the Follow page (ui/follow) and the Teach window (ui/teach).
//
// One class over five files; its methods are declared below under the file that defines them.
class MainWindow : public QMainWindow {
    Q_OBJECT

    // ---- Inline here: the parts that the app, its tests and its benchmarks reach.
public:
    void setQuiet(bool quiet) { m_quiet = quiet; } // no message boxes (tests, screenshots)
    RunController& controller() { return m_controller; }
    // A data-parallel run (`distributed:`) goes through synctax-run, which starts its ranks; this runs it.
    LauncherRun* launcherRun() const { return m_launcher; }
    ConfigPanel* configPanel() const { return m_configPanel; }
    ComparisonModel* comparisonModel() const { return m_results->comparisonModel(); }
    ComparisonView* comparisonView() const { return m_results->table(); }
    StepChart* stepChart() const { return m_results->stepChart(); }
    QueueChart* queueChart() const { return m_results->queueChart(); }
    // Tax against host work, in a dock beside the overhead chart, shown for a run that swept host work.
    HostWorkTaxChart* hostWorkTaxChart() const { return m_results->hostWorkTaxChart(); }
    QDockWidget* hostWorkTaxDock() const { return m_results->hostWorkTaxDock(); }
    // A data-parallel run's cells rank by rank, in a dock beside the queue, shown for such a result only.
    RanksModel* ranksModel() const { return m_results->ranksModel(); }
    RanksView* ranksView() const { return m_results->ranksView(); }
    QDockWidget* ranksDock() const { return m_results->ranksDock(); }
    ExplanationPanel* explanationPanel() const { return m_results->explanationPanel(); }
    // Shows this cell's queue and its group's step times and explanation (for a data-parallel run's
    // results also its stall chart in the Ranks dock); false when there is no such cell.
    bool showCell(const GroupKey& group, const QString& style) { return m_results->showCell(group, style); }
    // The same for the first group of this model and mode (of a sweep, its first point): synctax --cell.
    bool showCell(const QString& model, const QString& mode, const QString& style)
    {
        return m_results->showCell(model, mode, style);
    }
    // What the views show: the live or finished run, or the opened file.
    const ExperimentResult& shownResult() const { return m_results->result(); }
    QString lastSavedRun() const { return m_lastSavedRun; }
    // Shown instead of the table until there is a run or a result: what to do first.
    StartPage* startPage() const { return m_startPage; }
    TraceView* traceView() const { return m_traceView; }
    TraceLoader* traceLoader() const { return m_traceLoader; }
    TraceLoader* watchLoader() const { return m_watchLoader; }
    TraceFolderWatcher* traceWatcher() const { return m_traceWatcher; }

    // ---- mainwindow.cpp: the window and its views, runs in this process, results and
    // experiments in and out, settings, drops, the log.
public:
    // Where every run is saved, finished or stopped (the README names it).
    static QString runsFolder();
    // restoreSettings false: start from the default layout and experiment, and leave the user's
    // settings (layout, recent files) untouched (screenshots, exports, tests).
    explicit MainWindow(QWidget* parent = nullptr, bool restoreSettings = true);
    ~MainWindow() override;
    // Each returns false and says why in `error` (also shown to the user unless `quiet`).
    bool openConfig(const QString& path, QString* error = nullptr);
    bool saveConfig(const QString& path, QString* error = nullptr);
    bool openResults(const QString& path, QString* error = nullptr);
    bool saveResults(const QString& path, QString* error = nullptr);
    // Opens the results at `path` beside what is shown (A), cell by cell; nullptr when it cannot be read.
    DiffDialog* compareWith(const QString& path, QString* error = nullptr);
    bool loadPreset(const QString& name);
    // Everything about what is shown, into `dir`: each chart as PNG, SVG and PDF, the one-page
    // report (PDF), results.json, summary.csv and, for a run made here, steps.csv and trace.json; for
    // a run that swept host work also its chart and its tables (tax-vs-host-work.txt); for a
    // data-parallel run the per-rank table (ranks.txt, formatRankTable). With the Follow page
    // shown, the followed run's charts, report and data instead (exportFollowedRun).
    bool exportAll(const QString& dir, QStringList* written = nullptr, QString* error = nullptr);
    // What a drop does: a probe's run folder still written is followed; traces (several: the ranks
    // of one job), else a results file or an experiment, open.
    bool openDropped(const QList<QUrl>& urls);
    // The simulator's Teach window (created on first use): D, G, H, L, K, Q and the sync interval
    // as sliders, the pipeline animated, the tax curve and the regime map. Needs no GPU.
    TeachView* teachView();

public Q_SLOTS:
    bool run();
    void stop();

Q_SIGNALS:
    void runFinished(bool stopped);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    void createStartPage();
    void createStatusBar();
    void sizeToScreen();
    void connectController();
    void onProgress(double fraction, const QString& cell, double elapsedS, double remainingS);
    void onRunFinished(bool stopped);
    void setRunning(bool running);
    void autosave();
    // The results page shows `result` (with the cells of a run in progress); the start page steps aside.
    void showResult(const ExperimentResult& result);
    void updateStartPage();
    void openAny(const QString& path);
    void readSettings();
    void writeSettings();
    void log(const QString& line);
    void fail(const QString& title, const QString& message, QString* error);

    // ---- mainwindowactions.cpp: the menus and the tool bar, each menu a table of its actions; the
    // dialogs the actions open before they hand a path on; the recent files.
private:
    void createActions();
    void createFileMenu();
    void createViewMenu();
    void chooseConfigToOpen();
    void chooseConfigToSave();
    void chooseResultsToOpen();
    void chooseResultsToSave();
    void chooseTraces();
    void chooseTraceFolder();
    void chooseRunToFollow();
    void chooseExportFolder();
    void chooseTraceExportFolder();
    void chooseComparison();
    void showTeachWindow();
    void showAbout();
    void addRecentFile(const QString& path);
    void updateRecentMenu();

    // ---- mainwindowtrace.cpp: recorded traces: opening, watching, progress and Cancel, the
    // Trace page, its export. The trace itself is read, analysed and shown by ui/trace.
public:
    // Starts loading PyTorch-profiler traces (several: the ranks of one job) into the Trace page;
    // what is shown stays until the load succeeds. False when `paths` is empty.
    bool openTraces(const QStringList& paths);
    // Loads each complete *.pt.trace.json[.gz] that appears in `folder`, appending its steps.
    bool watchTraceFolder(const QString& folder, QString* error = nullptr);
    // The trace's per-step and per-site tables as CSV, into `dir`.
    bool exportTrace(const QString& dir, QStringList* written = nullptr, QString* error = nullptr);
    // What a drop onto the window may hold: local .json, .json.gz, .yaml or .yml files, nothing else.
    static bool acceptsDrop(const QList<QUrl>& urls);
    // Shows the Trace page (added on first use) or the experiment page.
    void showTracePage(bool show);
    bool tracePageShown() const;
    // Shows the Trace page and puts the keyboard on its what-if's host-work slider (Ctrl+Shift+H).
    void focusTraceWhatIf();

private:
    void createTraceViews();
    void setTraceLoading(bool loading);
    void pumpWatchQueue();

    // ---- mainwindowfollow.cpp: a followed training job: the Follow page, the Teach window it
    // opens on the loop, its export and comparison. The run itself is followed by ui/follow.
public:
    // Follows a probe's run folder as the job writes it, on the Follow page (added on first use):
    // its steps, sync sites, A/B and what-if as they come. `dir` may not hold probe.json yet.
    bool followRun(const QString& dir, QString* error = nullptr);
    // A probe's run folder without end.json: its job is (or was, until it crashed) still writing it.
    static bool isLiveProbeFolder(const QString& path);
    FollowView* followView(); // created on first use
    bool followPageShown() const;

private:
    void connectFollowView();
    bool compareFollowedRun();
    // The run's docks step aside while the Trace or the Follow page shows.
    void hideDocksForPage();

    // ---- mainwindowlauncher.cpp: a data-parallel run: synctax-run starts its ranks, the window
    // shows its progress, logs its lines and opens its results.
private:
    void connectLauncher();
    bool runWithLauncher(const ExperimentConfig& config);
    void onLauncherResults(const QString& path, int exitCode);
    void onLauncherFailed(const QString& message);
    bool isRunning() const; // in this process or through the launcher

    // ---- The window's state.
    RunController m_controller;
    LauncherRun* m_launcher = nullptr;
    bool m_quiet = false;
    bool m_restoreSettings = true;
    bool m_layoutRestored = false; // a saved window state was applied; the default dock sizes are not
    QString m_configPath;
    QString m_lastSavedRun;

    ConfigPanel* m_configPanel = nullptr;
    ResultsPage* m_results = nullptr;
    QStackedWidget* m_central = nullptr;
    StartPage* m_startPage = nullptr;
    TeachView* m_teach = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_cellLabel = nullptr;
    QLabel* m_etaLabel = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_openResultsAction = nullptr;
    QMenu* m_recentMenu = nullptr;

    QTabWidget* m_pages = nullptr; // the experiment page, the Trace and Follow pages once used
    FollowView* m_followView = nullptr;
    TraceView* m_traceView = nullptr;
    TraceLoader* m_traceLoader = nullptr;
    TraceLoader* m_watchLoader = nullptr; // one file at a time, apart from what File → Open Trace loads
    TraceFolderWatcher* m_traceWatcher = nullptr;
    QStringList m_watchQueue;
    QStringList m_loadingTraces;
    QList<QDockWidget*> m_docksHiddenForTrace; // the run's docks, hidden while the Trace page shows
    QProgressBar* m_traceProgress = nullptr;
    QLabel* m_traceEta = nullptr;
    QToolButton* m_traceCancel = nullptr;
};

} // namespace synctax
