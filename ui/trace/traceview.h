#pragma once

#include "core/trace/tracereport.h"
#include "ui/trace/tracefile.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QSplitter;
class QTableView;
class QTextBrowser;
class QVBoxLayout;

namespace synctax {

class TraceQueueChart;
class TraceSiteModel;
class TraceStepModel;
class TraceTimeline;
class TraceWhatIfPanel;

// A recorded trace, or the per-rank traces of one distributed job: the timeline of every rank on
// one time axis over, per rank side by side, its steps and its sync sites; beside them what the
// current rank's queue did and what SyncTax says about its loop.
class TraceView : public QWidget {
    Q_OBJECT
public:
    explicit TraceView(QWidget* parent = nullptr);
    ~TraceView() override;

    // Replaces what is shown: each file is a rank (in rank order when the traces say their rank).
    void setFiles(const TraceFilesPtr& files);
    // Adds each file's steps to its rank (same distributedInfo.rank), or a new rank: a watched folder.
    void appendFiles(const TraceFilesPtr& files);
    void clear();

    bool hasTrace() const { return !m_ranks.empty(); }
    int rankCount() const { return int(m_ranks.size()); }
    int currentRank() const { return m_current; }
    void setCurrentRank(int rank);
    // Selects a row of a rank's site table, which marks that site's syncs in the timeline.
    void selectSite(int rank, int row);
    TraceStepModel* stepModel(int rank) const;
    TraceSiteModel* siteModel(int rank) const;
    const TraceReport& report(int rank) const; // merged over the rank's files
    TraceTimeline* timeline() const { return m_timeline; }
    TraceQueueChart* queueChart() const { return m_queueChart; }
    // What if you logged differently: every file's loop, the first file's shown, a host-work slider.
    TraceWhatIfPanel* whatIfPanel() const { return m_whatIf; }
    void focusHostWork();
    QString explanationHtml() const;
    QStringList files() const;

    // Per rank, trace-steps.csv and trace-sites.csv (-rankN before .csv when there are several).
    // Beside them trace-summary.json (writeTraceSummary), named as synctax-run trace --out names it:
    // trace-summary.json for one file, trace-summary-<stem>.json for each of several (with folder
    // names where stems meet: traceSummaryFileNames); each file's what-if at the host work the
    // panel's slider shows. False, with nothing written, where one file is there twice.
    bool exportTables(const QString& dir, QStringList* written, QString* error);

private:
    struct Rank;
    void addFile(const TraceFile& file, const TraceFilesPtr& owner, bool append);
    void rebuild();
    void rebuildColumns(bool keepViews);
    void showCurrent();
    void updateWhatIfSources();

    std::vector<std::unique_ptr<Rank>> m_ranks;
    int m_current = -1;
    QLabel* m_header = nullptr;
    TraceTimeline* m_timeline = nullptr;
    QWidget* m_columnsHolder = nullptr;
    QVBoxLayout* m_columnsLayout = nullptr;
    QWidget* m_columns = nullptr;
    QTextBrowser* m_explanation = nullptr;
    TraceQueueChart* m_queueChart = nullptr;
    TraceWhatIfPanel* m_whatIf = nullptr;
};

} // namespace synctax
