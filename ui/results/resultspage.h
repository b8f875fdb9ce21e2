#pragma once

#include "core/analysis/experimentresult.h"
#include "core/steps/runhistory.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QComboBox;
class QDockWidget;
class QMainWindow;
class QStackedWidget;
class QWidget;

namespace synctax {

class ComparisonModel;
class ComparisonView;
class ExplanationPanel;
class HostWorkTaxChart;
class OverheadChart;
class QueueChart;
class RanksModel;
class RanksView;
class StepChart;

// The experiment page's results: the comparison table, the docks around it (Overhead, Tax vs host
// work, Explanation, Step time, Queue, Ranks) and the Model box that picks the group the step chart
// and the explanation show. The window hands it a result and the steps of a run or of a file; it
// fills every view, as ui/trace fills the Trace page.
class ResultsPage : public QObject {
    Q_OBJECT
public:
    // The table, put into `central` (the window's experiment page), and the Model box, which the
    // window's tool bar takes.
    ResultsPage(QMainWindow* window, QStackedWidget* central);
    // The docks, into the window once its own are in (the View menu lists them in that order), with
    // `log` (the window's) in a Log dock tabbed with the Queue dock.
    void createDocks(QWidget* log);

    // What the views show: the live or finished run, or an opened file; and where it came from.
    const ExperimentResult& result() const { return m_shown; }
    const QString& resultName() const { return m_shownName; }

    // Fills every view with `result`. `running`: the cells the run being measured plans, listed in
    // the Model box before they have results.
    void showResult(ExperimentResult result, const RunHistory* running);
    // A run of `config` about to start here or through the launcher: nothing measured yet.
    void beginRun(const ExperimentConfig& config);
    // The run started: the step and queue charts draw `history` as it grows, and the Model box
    // follows the cell being measured until the user picks another group.
    void showRunSteps(const RunHistory& history);
    // Once per drain of the run's steps: each chart replaces its series at most once.
    void updateRunSteps(const RunHistory& history);
    void refreshSteps();
    // No steps to draw (a data-parallel run's ranks keep theirs): the step and queue charts say `why`.
    void showNoSteps(const QString& why);
    // A results file opened from `path`, its files in `folder`: the steps.csv synctax-run wrote beside
    // it (a data-parallel run: rank 0's, in its folder) into the step and queue charts, where there
    // is one; the ranks' steps for the Ranks dock from their folders.
    void showResultsFile(const ExperimentResult& result, const QString& path, const QString& folder);

    // Shows this cell's queue and its group's step times and explanation (for a data-parallel run's
    // results also its stall chart in the Ranks dock); false when there is no such cell.
    bool showCell(const GroupKey& group, const QString& style);
    // The same for the first group of this model and mode (of a sweep, its first point).
    bool showCell(const QString& model, const QString& mode, const QString& style);
    // Into `dir`, each chart as PNG, SVG and PDF, the one-page report (PDF) and the runner's tables
    // (tax-vs-host-work.txt, ranks.txt) where the result has them; false and why in `error`.
    bool exportCharts(const QString& dir, QStringList* files, QString* error) const;
    // Dock sizes only take once the window has its size: the overhead chart gets room for its labels.
    void sizeDocks();

    ComparisonModel* comparisonModel() const { return m_comparison; }
    ComparisonView* table() const { return m_table; }
    QComboBox* groupBox() const { return m_groupBox; } // the window's tool bar shows it
    StepChart* stepChart() const { return m_stepChart; }
    QueueChart* queueChart() const { return m_queueChart; }
    HostWorkTaxChart* hostWorkTaxChart() const { return m_hostWorkTaxChart; }
    QDockWidget* hostWorkTaxDock() const { return m_hostWorkTaxDock; }
    RanksModel* ranksModel() const { return m_ranks; }
    RanksView* ranksView() const { return m_ranksView; }
    QDockWidget* ranksDock() const { return m_ranksDock; }
    ExplanationPanel* explanationPanel() const { return m_explanation; }

Q_SIGNALS:
    // A line for the window's log (steps read beside a results file, or why not).
    void noteAvailable(const QString& note);

private:
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area);
    void createGroupBox();
    void showStepsBeside(const QString& folder);
    void updateGroups(const RunHistory* running);
    void selectGroup(int index);
    void updateHostWorkTax();
    void updateRanks();

    QMainWindow* m_window;
    ExperimentResult m_shown;
    QString m_shownName; // a file, or the run made here
    RunHistory m_fileSteps; // the opened results' steps.csv, when one was read
    bool m_followRun = true; // the Model box follows the cell being measured

    ComparisonModel* m_comparison = nullptr;
    ComparisonView* m_table = nullptr;
    QComboBox* m_groupBox = nullptr;
    StepChart* m_stepChart = nullptr;
    QueueChart* m_queueChart = nullptr;
    OverheadChart* m_overheadChart = nullptr;
    HostWorkTaxChart* m_hostWorkTaxChart = nullptr;
    ExplanationPanel* m_explanation = nullptr;
    RanksModel* m_ranks = nullptr;
    RanksView* m_ranksView = nullptr;
    QDockWidget* m_overheadDock = nullptr;
    QDockWidget* m_hostWorkTaxDock = nullptr;
    QDockWidget* m_explanationDock = nullptr;
    QDockWidget* m_stepDock = nullptr;
    QDockWidget* m_ranksDock = nullptr;
};

} // namespace synctax
