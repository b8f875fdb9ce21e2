#include "ui/results/resultspage.h"

#include "core/config/configerror.h"
#include "core/config/sweepgrid.h"
#include "core/files/atomicwrite.h"
#include "core/results/ranktable.h"
#include "core/results/runoutputs.h"
#include "core/results/stepcsvreader.h"
#include "core/results/sweeptable.h"
#include "core/text/format.h"
#include "ui/charts/hostworktaxchart.h"
#include "ui/charts/overheadchart.h"
#include "ui/charts/queuechart.h"
#include "ui/charts/stepchart.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/comparisonview.h"
#include "ui/results/explanationpanel.h"
#include "ui/results/ranksmodel.h"
#include "ui/results/ranksview.h"
#include "ui/results/reportwriter.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QStackedWidget>
#include <QTimer>

#include <algorithm>
#include <optional>

namespace synctax {

namespace {

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

ResultsPage::ResultsPage(QMainWindow* window, QStackedWidget* central)
    : QObject(window)
    , m_window(window)
{
    m_comparison = new ComparisonModel(this);
    m_table = new ComparisonView(window);
    m_table->setObjectName(QStringLiteral("comparisonView"));
    m_table->setComparisonModel(m_comparison);
    central->addWidget(m_table);
    createGroupBox();

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

QDockWidget* ResultsPage::addDock(QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, m_window);
    dock->setObjectName(name);
    dock->setWidget(widget);
    m_window->addDockWidget(area, dock);
    return dock;
}

void ResultsPage::createDocks(QWidget* log)
{
    m_overheadChart = new OverheadChart(m_window);
    // The least room in which every style's label stays whole (tst_charts checks it).
    m_overheadChart->setMinimumSize(560, 340);
    m_overheadDock = addDock(m_overheadChart, tr("Overhead"), QStringLiteral("overheadDock"), Qt::RightDockWidgetArea);
    // Beside the overhead chart, shown only for a run that swept host work (updateHostWorkTax).
    m_hostWorkTaxChart = new HostWorkTaxChart(m_window);
    m_hostWorkTaxChart->setMinimumSize(560, 340);
    m_hostWorkTaxDock = addDock(
        m_hostWorkTaxChart, tr("Tax vs host work"), QStringLiteral("hostWorkTaxDock"), Qt::RightDockWidgetArea);
    m_window->tabifyDockWidget(m_overheadDock, m_hostWorkTaxDock);
    m_overheadDock->raise();
    m_hostWorkTaxDock->hide();
    m_explanation = new ExplanationPanel(m_window);
    m_explanationDock
        = addDock(m_explanation, tr("Explanation"), QStringLiteral("explanationDock"), Qt::RightDockWidgetArea);

    m_stepChart = new StepChart(m_window);
    // No history until a run starts: the per-step charts say what shows there and how.
    m_stepChart->setHistory(nullptr);
    m_stepChart->setNoHistoryText(tr("No run yet: press Run to see the time of every step here."));
    m_stepChart->setMinimumHeight(240);
    m_stepDock = addDock(m_stepChart, tr("Step time"), QStringLiteral("stepDock"), Qt::BottomDockWidgetArea);
    m_queueChart = new QueueChart(m_window);
    m_queueChart->setHistory(nullptr, &m_shown.config);
    m_queueChart->setNoHistoryText(tr("No run yet: press Run to see how far the host runs ahead of the GPU."));
    m_queueChart->setMinimumHeight(240);
    auto* queueDock = addDock(m_queueChart, tr("Queue"), QStringLiteral("queueDock"), Qt::BottomDockWidgetArea);
    m_window->splitDockWidget(m_stepDock, queueDock, Qt::Horizontal);

    auto* logDock = addDock(log, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    m_window->tabifyDockWidget(queueDock, logDock);
    queueDock->raise();
    // Beside the queue, shown only for a data-parallel run's results (updateRanks).
    m_ranks = new RanksModel(this);
    m_ranksView = new RanksView(m_window);
    m_ranksView->setRanksModel(m_ranks);
    m_ranksDock = addDock(m_ranksView, tr("Ranks"), QStringLiteral("ranksDock"), Qt::BottomDockWidgetArea);
    m_window->tabifyDockWidget(queueDock, m_ranksDock);
    m_ranksDock->hide();
}

void ResultsPage::createGroupBox()
{
    // Without a parent until the tool bar takes it, so that it keeps its place in the focus chain.
    m_groupBox = new QComboBox;
    m_groupBox->setObjectName(QStringLiteral("groupBox"));
    m_groupBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_groupBox->setPlaceholderText(tr("(no run yet)"));
    m_groupBox->setEnabled(false);
    m_groupBox->setToolTip(tr("The model (and mode) shown by the step-time chart and the explanation"));
    connect(m_groupBox, QOverload<int>::of(&QComboBox::activated), this, [this](int index) {
        m_followRun = false;
        selectGroup(index);
    });
    connect(m_groupBox, QOverload<int>::of(&QComboBox::currentIndexChanged), this, &ResultsPage::selectGroup);
}

void ResultsPage::showResult(ExperimentResult result, const RunHistory* running)
{
    m_shown = std::move(result);
    m_comparison->setResult(m_shown);
    m_overheadChart->setResult(m_shown);
    updateHostWorkTax();
    updateRanks();
    m_explanation->setResult(m_shown);
    updateGroups(running);
}

void ResultsPage::beginRun(const ExperimentConfig& config)
{
    m_shownName = tr("the run of %1 made here").arg(QString::fromStdString(config.name));
    m_ranksView->setResultsFolder(QString());
    m_shown = ExperimentResult {};
    m_shown.config = config;
}

void ResultsPage::showRunSteps(const RunHistory& history)
{
    m_followRun = true;
    m_fileSteps.clear();
    m_stepChart->setHistory(&history);
    m_queueChart->setHistory(&history, &m_shown.config);
}

void ResultsPage::updateRunSteps(const RunHistory& history)
{
    if (m_followRun && history.lastCell() >= 0) {
        const CellPlan& cell = history.cells()[size_t(history.lastCell())];
        const int index = m_groupBox->findData(groupData(groupKeyOf(cell)));
        if (index >= 0 && index != m_groupBox->currentIndex())
            m_groupBox->setCurrentIndex(index);
    }
    refreshSteps();
}

void ResultsPage::refreshSteps()
{
    m_stepChart->refresh();
    m_queueChart->refresh();
}

void ResultsPage::showNoSteps(const QString& why)
{
    m_stepChart->setNoHistoryText(why);
    m_queueChart->setNoHistoryText(why);
    m_stepChart->setHistory(nullptr);
    m_queueChart->setHistory(nullptr, &m_shown.config);
}

void ResultsPage::showResultsFile(const ExperimentResult& result, const QString& path, const QString& folder)
{
    m_shownName = path;
    m_stepChart->setHistory(nullptr);
    m_queueChart->setHistory(nullptr, &m_shown.config);
    m_shown = result;
    m_followRun = false;
    showStepsBeside(folder);
    // A data-parallel run's ranks wrote their steps.csv into folders beside its results.json.
    m_ranksView->setResultsFolder(folder);
    showResult(m_shown, nullptr);
}

void ResultsPage::showStepsBeside(const QString& folder)
{
    m_fileSteps.clear();
    QString csv = QDir(folder).filePath(QStringLiteral("steps.csv"));
    QString who;
    if (m_shown.distributed) {
        const auto& ranks = m_shown.distributed->ranks;
        const auto rank0 = std::find_if(ranks.begin(), ranks.end(), [](const RankOutcome& r) { return r.rank == 0; });
        if (rank0 != ranks.end()) {
            csv = QString::fromStdString(rankStepsPath(folder.toStdString(), *rank0));
            who = tr("rank 0's ");
        }
    }
    QString noSteps;
    if (!QFileInfo::exists(csv)) {
        // Results files hold blocks, not steps: the per-step charts say so instead of waiting for data.
        noSteps = tr("No steps.csv beside this results file: per-step times show while a run is measured here, "
                     "or from the steps.csv synctax-run writes beside its results.json.");
    } else if (const StepsCsvLoadResult loaded = loadStepsCsvFile(csv.toStdString()); !loaded.steps) {
        noSteps = tr("%1steps.csv could not be read: %2")
                      .arg(who, QString::fromStdString(formatErrors(loaded.errors)).trimmed());
        Q_EMIT noteAvailable(noSteps);
    } else {
        m_fileSteps.reset(loaded.steps->cells, 0);
        const size_t kept = m_fileSteps.append(loaded.steps->records);
        Q_EMIT noteAvailable(tr("Read %1 measured steps from %2steps.csv (%3)").arg(kept).arg(who, csv));
        m_stepChart->setHistory(&m_fileSteps);
        m_queueChart->setHistory(&m_fileSteps, &m_shown.config);
        if (kept == 0)
            noSteps = tr("%1steps.csv has no measured steps (only warm-up rounds).").arg(who);
    }
    m_stepChart->setNoHistoryText(noSteps);
    m_queueChart->setNoHistoryText(noSteps);
}

bool ResultsPage::showCell(const QString& model, const QString& mode, const QString& style)
{
    for (int i = 0; i < m_groupBox->count(); ++i) {
        const std::optional<GroupKey> group = groupOfData(m_groupBox->itemData(i));
        if (group && QString::fromStdString(group->model) == model && QString::fromStdString(group->mode) == mode)
            return showCell(*group, style);
    }
    return false;
}

bool ResultsPage::showCell(const GroupKey& group, const QString& style)
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

void ResultsPage::updateGroups(const RunHistory* running)
{
    std::vector<GroupKey> groups;
    auto add = [&](const GroupKey& g) {
        if (std::find(groups.begin(), groups.end(), g) == groups.end())
            groups.push_back(g);
    };
    if (running) {
        for (const CellPlan& c : running->cells())
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

void ResultsPage::selectGroup(int index)
{
    const std::optional<GroupKey> group = groupOfData(m_groupBox->itemData(index));
    if (!group)
        return;
    m_stepChart->setGroup(*group, m_groupBox->itemText(index));
    m_explanation->setGroup(*group);
    m_stepChart->refresh();
}

void ResultsPage::updateHostWorkTax()
{
    m_hostWorkTaxChart->setResult(m_shown);
    const bool swept = HostWorkTaxChart::hasCurves(m_shown);
    // Shown once when a result first has a sweep, so that it is seen; hidden again for one without.
    if (swept && m_hostWorkTaxDock->isHidden()) {
        m_hostWorkTaxDock->show();
        // Raised once the dock's tab exists: a window not shown yet (a file opened at start) has none.
        QTimer::singleShot(0, m_hostWorkTaxDock, [dock = m_hostWorkTaxDock] { dock->raise(); });
    } else if (!swept) {
        m_hostWorkTaxDock->hide();
    }
}

void ResultsPage::updateRanks()
{
    m_ranks->setResult(m_shown);
    if (m_ranks->hasRanks() && m_ranksDock->isHidden()) {
        m_ranksDock->show();
        // As for the host-work dock: raised once its tab exists; wide enough for two ranks' columns
        // (the step chart beside it has nothing to show for a results file).
        QTimer::singleShot(0, m_ranksDock, [this] {
            m_ranksDock->raise();
            m_window->resizeDocks({ m_ranksDock }, { m_window->width() * 3 / 5 }, Qt::Horizontal);
            // And tall enough for the table and the stall chart under it.
            m_window->resizeDocks({ m_ranksDock }, { m_window->height() / 2 }, Qt::Vertical);
        });
    } else if (!m_ranks->hasRanks()) {
        m_ranksDock->hide();
    }
}

void ResultsPage::sizeDocks()
{
    const int width = m_window->width();
    const int height = m_window->height();
    m_window->resizeDocks({ m_overheadDock }, { int(width * 0.4) }, Qt::Horizontal);
    m_window->resizeDocks({ m_stepDock }, { std::max(280, height / 3) }, Qt::Vertical);
    m_window->resizeDocks({ m_overheadDock, m_explanationDock }, { 2 * height / 5, height / 5 }, Qt::Vertical);
}

bool ResultsPage::exportCharts(const QString& dir, QStringList* files, QString* error) const
{
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
            *error = tr("%1: could not write the %2 chart").arg(dir, QString::fromLatin1(name));
            return false;
        }
        *files << base + QStringLiteral(".png") << base + QStringLiteral(".svg") << base + QStringLiteral(".pdf");
    }
    const QString report = out.filePath(QStringLiteral("report.pdf"));
    if (!writeReportPdf(report, m_shown, m_overheadChart->renderImage(QSize(900, 520), 2.0), error))
        return false;
    *files << report;
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
            *error = QString::fromStdString(e.what());
            return false;
        }
        *files << path;
    }
    return true;
}

} // namespace synctax
