#include "ui/trace/traceview.h"

#include "core/text/format.h"
#include "core/trace/tracesummary.h"
#include "ui/charts/tracequeuechart.h"
#include "ui/trace/tablecsv.h"
#include "ui/trace/traceexplanation.h"
#include "ui/trace/tracemerge.h"
#include "ui/trace/tracesitemodel.h"
#include "ui/trace/tracestepmodel.h"
#include "ui/trace/tracetimeline.h"
#include "ui/trace/tracewhatifpanel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace synctax {

// Side by side up to this many ranks; tabs beyond, where columns would be too narrow to read.
constexpr int maxColumns = 4;

struct TraceView::Rank {
    std::optional<std::int64_t> number;
    QString label;
    std::vector<TraceFilesPtr> owners; // keep the files alive
    std::vector<const TraceFile*> files;
    TraceReport merged;
    TraceStepModel* steps = nullptr;
    TraceSiteModel* sites = nullptr;
};

TraceView::TraceView(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_timeline(new TraceTimeline(this))
    , m_columnsHolder(new QWidget(this))
    , m_explanation(new QTextBrowser(this))
    , m_queueChart(new TraceQueueChart(this))
    , m_whatIf(new TraceWhatIfPanel(this))
{
    setObjectName(QStringLiteral("traceView"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_timeline->setObjectName(QStringLiteral("traceTimeline"));
    m_explanation->setObjectName(QStringLiteral("traceExplanation"));
    m_explanation->setOpenLinks(false);
    m_queueChart->setMinimumHeight(220);
    m_columnsLayout = new QVBoxLayout(m_columnsHolder);
    m_columnsLayout->setContentsMargins(0, 0, 0, 0);

    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_explanation);
    side->addWidget(m_queueChart);
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_columnsHolder);
    bottom->addWidget(m_whatIf);
    bottom->addWidget(side);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setStretchFactor(2, 2);
    // 3:2:2 from the start, not only of the space beyond each pane's size hint: the what-if's table
    // would otherwise take the width the step table's columns need.
    bottom->setSizes({ 3000, 2000, 2000 });
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_timeline);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(split, 1);
    clear();
}

TraceView::~TraceView() = default;

void TraceView::clear()
{
    m_ranks.clear();
    m_current = -1;
    rebuild();
}

void TraceView::setFiles(const TraceFilesPtr& files)
{
    // The models of the previous trace go with their table views in rebuildColumns.
    m_ranks.clear();
    m_current = -1;
    if (files) {
        for (const TraceFile& f : *files)
            addFile(f, files, false);
    }
    std::stable_sort(m_ranks.begin(), m_ranks.end(),
        [](const auto& a, const auto& b) { return a->number.value_or(INT64_MAX) < b->number.value_or(INT64_MAX); });
    m_current = m_ranks.empty() ? -1 : 0;
    rebuild();
}

void TraceView::appendFiles(const TraceFilesPtr& files)
{
    if (!files)
        return;
    const size_t before = m_ranks.size();
    for (const TraceFile& f : *files)
        addFile(f, files, true);
    if (m_current < 0 && !m_ranks.empty())
        m_current = 0;
    if (m_ranks.size() != before)
        rebuild();
    else {
        rebuildColumns(true);
        std::vector<TimelineRank> ranks;
        for (const auto& r : m_ranks)
            ranks.push_back({ r->label, r->files });
        m_timeline->setRanks(ranks);
        updateWhatIfSources();
        showCurrent();
    }
}

void TraceView::addFile(const TraceFile& file, const TraceFilesPtr& owner, bool append)
{
    Rank* rank = nullptr;
    if (append) {
        for (const auto& r : m_ranks) {
            if (r->number == file.report.source.rank)
                rank = r.get();
        }
    }
    if (!rank) {
        auto added = std::make_unique<Rank>();
        added->number = file.report.source.rank;
        added->label = added->number ? tr("rank %1").arg(*added->number)
                                     : QFileInfo(QString::fromStdString(file.path)).fileName();
        added->steps = new TraceStepModel(this);
        added->sites = new TraceSiteModel(this);
        rank = added.get();
        m_ranks.push_back(std::move(added));
    }
    rank->owners.push_back(owner);
    rank->files.push_back(&file);
    std::vector<const TraceReport*> reports;
    for (const TraceFile* f : rank->files)
        reports.push_back(&f->report);
    rank->merged = mergeTraceReports(reports);
    rank->steps->appendSteps(file.report.steps);
    rank->sites->setSites(rank->merged.sites);
}

void TraceView::rebuild()
{
    std::vector<TimelineRank> ranks;
    for (const auto& r : m_ranks)
        ranks.push_back({ r->label, r->files });
    m_timeline->setRanks(ranks);
    rebuildColumns(false);
    updateWhatIfSources();
    showCurrent();
}

void TraceView::updateWhatIfSources()
{
    std::vector<TraceWhatIfPanel::Source> sources;
    for (const auto& r : m_ranks) {
        for (const TraceFile* f : r->files) {
            const QString name = QFileInfo(QString::fromStdString(f->path)).fileName();
            const bool named = r->number.has_value() && m_ranks.size() > 1;
            sources.push_back({ named ? tr("%1 · %2").arg(r->label, name) : name, f->loop, f->probe });
        }
    }
    m_whatIf->setSources(std::move(sources));
}

void TraceView::focusHostWork() { m_whatIf->focusHostWork(); }

void TraceView::rebuildColumns(bool keepViews)
{
    // Keep the table views (their scroll and selection) when only rows were added: a watched folder.
    if (keepViews && m_columns)
        return;
    delete m_columns;
    m_columns = nullptr;
    // Models not owned by a current rank belong to a trace no longer shown; their views are gone.
    for (QObject* child : children()) {
        auto* model = qobject_cast<QAbstractItemModel*>(child);
        bool used = false;
        for (const auto& r : m_ranks)
            used = used || r->steps == model || r->sites == model;
        if (model && !used)
            delete model;
    }
    if (m_ranks.empty())
        return;
    const bool side = int(m_ranks.size()) <= maxColumns;
    QSplitter* splitter = side ? new QSplitter(Qt::Horizontal, m_columnsHolder) : nullptr;
    QTabWidget* tabs = side ? nullptr : new QTabWidget(m_columnsHolder);
    m_columns = side ? static_cast<QWidget*>(splitter) : static_cast<QWidget*>(tabs);
    for (size_t i = 0; i < m_ranks.size(); ++i) {
        const Rank& r = *m_ranks[i];
        auto* column = new QWidget;
        auto* layout = new QVBoxLayout(column);
        layout->setContentsMargins(2, 2, 2, 2);
        auto table = [&](QAbstractItemModel* model, const QString& name) {
            auto* view = new QTableView(column);
            view->setObjectName(name);
            view->setModel(model);
            view->setSelectionBehavior(QAbstractItemView::SelectRows);
            view->setSelectionMode(QAbstractItemView::SingleSelection);
            view->verticalHeader()->hide();
            view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
            view->horizontalHeader()->setStretchLastSection(true);
            view->resizeColumnsToContents();
            return view;
        };
        if (side) {
            auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(r.label.toHtmlEscaped()), column);
            layout->addWidget(title);
        }
        auto* steps = table(r.steps, QStringLiteral("traceSteps"));
        auto* sites = table(r.sites, QStringLiteral("traceSites"));
        // The Python line takes what the numbers leave.
        sites->horizontalHeader()->setStretchLastSection(false);
        sites->horizontalHeader()->setSectionResizeMode(TraceSiteModel::Python, QHeaderView::Stretch);
        auto* parts = new QSplitter(Qt::Vertical, column);
        parts->addWidget(steps);
        parts->addWidget(sites);
        layout->addWidget(parts);
        const int rank = int(i);
        connect(steps->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, rank] { setCurrentRank(rank); });
        connect(sites->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, rank](const QModelIndex& current) { selectSite(rank, current.row()); });
        if (side)
            splitter->addWidget(column);
        else
            tabs->addTab(column, r.label);
    }
    if (tabs)
        connect(tabs, &QTabWidget::currentChanged, this, &TraceView::setCurrentRank);
    m_columnsLayout->addWidget(m_columns);
}

void TraceView::setCurrentRank(int rank)
{
    if (rank < 0 || rank >= rankCount() || rank == m_current)
        return;
    m_current = rank;
    showCurrent();
}

void TraceView::selectSite(int rank, int row)
{
    if (rank < 0 || rank >= rankCount())
        return;
    setCurrentRank(rank);
    const auto& sites = m_ranks[size_t(rank)]->merged.sites;
    if (row < 0 || row >= int(sites.size())) {
        m_timeline->highlightSite(-1, {}, {});
        return;
    }
    m_timeline->highlightSite(rank, sites[size_t(row)].op, sites[size_t(row)].python);
}

void TraceView::showCurrent()
{
    if (m_current < 0 || m_current >= rankCount()) {
        m_header->setText(tr("No trace open. File → Open Trace… reads a PyTorch profiler trace (.json or .json.gz); "
                             "several files at once are the ranks of one job."));
        m_explanation->setHtml(QString());
        m_queueChart->setReport(nullptr);
        return;
    }
    const Rank& r = *m_ranks[size_t(m_current)];
    const TraceSourceInfo& s = r.merged.source;
    QStringList what;
    what << (r.files.size() == 1
            ? QFileInfo(QString::fromStdString(s.file.empty() ? r.files.front()->path : s.file)).fileName()
            : tr("%1 files").arg(r.files.size()));
    if (!s.device.empty())
        what << QString::fromStdString(s.device);
    if (s.torchVersion)
        what << tr("torch %1").arg(QString::fromStdString(*s.torchVersion));
    if (s.cudaVersion)
        what << tr("CUDA %1").arg(QString::fromStdString(*s.cudaVersion));
    if (s.worldSize)
        what << tr("%1 of %2 ranks").arg(r.label).arg(*s.worldSize);
    what << tr("%n step(s)", nullptr, int(r.merged.steps.size()));
    what << tr("mean step %1 ms").arg(QString::fromStdString(formatNumber("%.2f", r.merged.meanStepMs)));
    what << tr("sync tax %1%").arg(QString::fromStdString(formatNumber("%.1f", r.merged.taxPct)));
    m_header->setText(what.join(QStringLiteral(" · ")));
    m_explanation->setHtml(QStringLiteral("<h3>%1</h3>").arg(r.label.toHtmlEscaped()) + traceExplanation(r.merged));
    // Both charts of the trace read time from the same zero.
    m_queueChart->setTimeSpan(m_timeline->firstNs(), m_timeline->lastNs());
    m_queueChart->setReport(&r.merged);
}

TraceStepModel* TraceView::stepModel(int rank) const
{
    return rank >= 0 && rank < rankCount() ? m_ranks[size_t(rank)]->steps : nullptr;
}

TraceSiteModel* TraceView::siteModel(int rank) const
{
    return rank >= 0 && rank < rankCount() ? m_ranks[size_t(rank)]->sites : nullptr;
}

const TraceReport& TraceView::report(int rank) const { return m_ranks.at(size_t(rank))->merged; }

QString TraceView::explanationHtml() const { return m_explanation->toHtml(); }

QStringList TraceView::files() const
{
    QStringList paths;
    for (const auto& r : m_ranks) {
        for (const TraceFile* f : r->files)
            paths << QString::fromStdString(f->path);
    }
    return paths;
}

bool TraceView::exportTables(const QString& dir, QStringList* written, QString* error)
{
    // trace-summary.json as synctax-run trace --out names it: one file alone, else one per file by
    // its stem, told apart by folder where stems meet; named before anything is written.
    std::vector<std::string> paths;
    for (const QString& f : this->files())
        paths.push_back(f.toStdString());
    const TraceSummaryNames summaries
        = paths.size() == 1 ? TraceSummaryNames { { "trace-summary.json" }, {}, {} } : traceSummaryFileNames(paths);
    if (!summaries.problem.empty()) {
        if (error)
            *error = QString::fromStdString(summaries.problem);
        return false;
    }
    const QDir out(dir);
    QStringList files;
    for (size_t i = 0; i < m_ranks.size(); ++i) {
        const Rank& r = *m_ranks[i];
        const QString suffix
            = m_ranks.size() == 1 ? QString() : QStringLiteral("-rank%1").arg(r.number.value_or(std::int64_t(i)));
        const std::pair<QString, QAbstractItemModel*> tables[]
            = { { QStringLiteral("trace-steps"), r.steps }, { QStringLiteral("trace-sites"), r.sites } };
        for (const auto& [name, model] : tables) {
            const QString path = out.filePath(name + suffix + QStringLiteral(".csv"));
            QFile file(path);
            const QByteArray csv = modelToCsv(*model).toUtf8();
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csv) != csv.size()) {
                if (error)
                    *error = tr("%1: %2").arg(path, file.errorString());
                return false;
            }
            files << path;
        }
    }
    // Each file's what-if as the panel shows it: its loop calibrated to the Phases field, at the
    // slider's host work.
    ImportedLoop notPrepared;
    notPrepared.reason = "no replay prepared for this file";
    size_t next = 0; // files() lists them in this order
    for (const auto& r : m_ranks) {
        for (const TraceFile* f : r->files) {
            const QString path = out.filePath(QString::fromStdString(summaries.names.at(next++)));
            try {
                const ImportedLoop loop = f->loop ? m_whatIf->calibrated(*f->loop) : notPrepared;
                writeTraceSummary(path.toStdString(), f->report, loop, m_whatIf->whatIfOf(loop));
            } catch (const std::exception& e) {
                if (error)
                    *error = QString::fromStdString(e.what());
                return false;
            }
            files << path;
        }
    }
    if (written)
        *written << files;
    return true;
}

} // namespace synctax
