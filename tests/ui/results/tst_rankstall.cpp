// The Ranks dock's stall chart on a real run: tests/data/results/ddp-cpu-steps/ holds the launcher's
// results.json of `synctax-run run ddp-cpu` with each rank's rank-K/steps.csv beside it
// (tests/data/results/README.md). Expected values are read in the test straight from those CSV
// files (split here, not by the app's reader) and from the loaded results' rank cells.
#include "core/results/resultsloader.h"
#include "ui/charts/rankstallchart.h"
#include "ui/mainwindow.h"
#include "ui/results/ranksmodel.h"
#include "ui/results/ranksview.h"

#include "testfiles.h"
#include <QDockWidget>
#include <QFile>
#include <QLineSeries>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>

#include <QtTest>

#include <algorithm>
#include <map>

using namespace synctax;

namespace {

const QString runDir = QStringLiteral(SYNCTAX_TEST_DATA "/results/ddp-cpu-steps");

struct CsvStep {
    double startMs = 0;
    double stepMs = 0; // host_dispatch_us + host_logging_us, in ms
    double waitMs = 0;
};

// Rank `rank`'s measured steps (round >= 0) of `style`, in the order they started.
std::vector<CsvStep> csvSteps(int rank, const QString& style)
{
    QFile file(runDir + QStringLiteral("/rank-%1/steps.csv").arg(rank));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QStringList header = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
    const auto col = [&](const char* name) { return header.indexOf(QLatin1String(name)); };
    std::vector<CsvStep> steps;
    while (!file.atEnd()) {
        const QStringList f = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
        if (f.size() != header.size() || f[col("style")] != style || f[col("round")].toInt() < 0)
            continue;
        steps.push_back({ f[col("start_ms")].toDouble(),
            (f[col("host_dispatch_us")].toDouble() + f[col("host_logging_us")].toDouble()) / 1000.0,
            f[col("collective_wait_ms")].toDouble() });
    }
    std::stable_sort(
        steps.begin(), steps.end(), [](const CsvStep& a, const CsvStep& b) { return a.startMs < b.startMs; });
    return steps;
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

QLineSeries* seriesNamed(RankStallChart* chart, const QString& name)
{
    for (size_t i = 0; chart->series(i); ++i) {
        if (chart->series(i)->objectName() == name)
            return chart->series(i);
    }
    return nullptr;
}

int rowOf(const RanksModel& model, const QString& style)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (QString::fromStdString(model.rowStyle(row)) == style)
            return row;
    }
    return -1;
}

} // namespace

class TestRankStall : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void eachRanksWaitPerStepIsWhatItsCellSummarises()
    {
        // The per-cell median in results.json comes from the same per-step numbers as steps.csv.
        const ResultsLoadResult loaded = loadResultsFile((runDir + QStringLiteral("/results.json")).toStdString());
        QVERIFY(loaded.result && loaded.result->distributed);
        for (const RankOutcome& rank : loaded.result->distributed->ranks) {
            QCOMPARE(QString::fromStdString(rank.folder), QStringLiteral("rank-%1").arg(rank.rank));
            for (const CellResult& c : rank.cells) {
                const std::vector<CsvStep> steps = csvSteps(rank.rank, QString::fromStdString(c.style));
                QCOMPARE(int64_t(steps.size()), c.stepsMeasured);
                std::vector<double> waits;
                for (const CsvStep& s : steps) {
                    QVERIFY(s.waitMs >= 0);
                    waits.push_back(s.waitMs);
                }
                QVERIFY(c.collectiveWaitMs);
                QVERIFY2(std::abs(medianOf(waits) - c.collectiveWaitMs->median) < 1e-9,
                    qPrintable(QStringLiteral("rank %1 %2: %3 vs %4")
                                   .arg(rank.rank)
                                   .arg(QString::fromStdString(c.style))
                                   .arg(medianOf(waits))
                                   .arg(c.collectiveWaitMs->median)));
            }
        }
    }

    void theChartDrawsTheSelectedRowsStepsFromTheRanksFiles()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.resize(1600, 1200);
        w.show();
        QVERIFY(w.openResults(runDir + QStringLiteral("/results.json")));
        RanksView* view = w.ranksView();
        RankStallChart* chart = view->stallChart();
        // At first the row the sentence above the table is about.
        QCOMPARE(view->chartRow(), w.ranksModel()->worstRow());
        // Raised with the dock, under the table (the view's viewport covers the whole chart).
        QTRY_VERIFY(!chart->viewport()->visibleRegion().isEmpty());
        QVERIFY(keepScreenshot(w.grab(), QStringLiteral("ranks-stall-ddp-cpu")));

        for (const QString style : { "none", "item", "progress_bar_postfix" }) {
            // Clicked in the table, as a user picks it.
            const int row = rowOf(*w.ranksModel(), style);
            QVERIFY(row >= 0);
            auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->table()->model());
            const QModelIndex at = proxy->mapFromSource(w.ranksModel()->index(row, 1));
            QTest::mouseClick(view->table()->viewport(), Qt::LeftButton, {}, view->table()->visualRect(at).center());
            QCOMPARE(view->chartRow(), row);
            QVERIFY(chart->placeholder().isEmpty());
            QVERIFY(chart->chart()->title().contains(style));

            const std::vector<CsvStep> rank0 = csvSteps(0, style);
            const std::vector<CsvStep> rank1 = csvSteps(1, style);
            QCOMPARE(rank0.size(), size_t(40)); // ddp-cpu: 4 blocks of 10 steps measured per cell
            QCOMPARE(rank1.size(), rank0.size());
            const struct {
                const char* series;
                const std::vector<CsvStep>& steps;
                double CsvStep::*value;
            } lanes[] = { { "rank0:step", rank0, &CsvStep::stepMs }, { "rank0:wait", rank0, &CsvStep::waitMs },
                { "rank1:wait", rank1, &CsvStep::waitMs } };
            for (const auto& lane : lanes) {
                QLineSeries* series = seriesNamed(chart, QLatin1String(lane.series));
                QVERIFY2(series, lane.series);
                const QList<QPointF> points = series->points();
                QCOMPARE(points.size(), qsizetype(lane.steps.size()));
                for (qsizetype k = 0; k < points.size(); ++k) {
                    QCOMPARE(points[k].x(), double(k));
                    const double expected = lane.steps[size_t(k)].*lane.value;
                    QVERIFY2(std::abs(points[k].y() - expected) < 1e-9,
                        qPrintable(QStringLiteral("%1 step %2: %3, the CSV says %4")
                                       .arg(QLatin1String(lane.series))
                                       .arg(k)
                                       .arg(points[k].y())
                                       .arg(expected)));
                }
            }
        }

        // synctax --cell picks the same row.
        QVERIFY(w.showCell(QStringLiteral("tiny_mlp"), QStringLiteral("eager"), QStringLiteral("item")));
        QCOMPARE(view->chartRow(), rowOf(*w.ranksModel(), QStringLiteral("item")));
        QVERIFY(!w.showCell(QStringLiteral("tiny_mlp"), QStringLiteral("eager"), QStringLiteral("print_every_step")));

        // Sorted by a column, a click still picks the row under the mouse.
        view->table()->sortByColumn(w.ranksModel()->waitColumn(1), Qt::DescendingOrder);
        const QModelIndex top = view->table()->model()->index(0, 1);
        QTest::mouseClick(view->table()->viewport(), Qt::LeftButton, {}, view->table()->visualRect(top).center());
        QCOMPARE(
            view->chartRow(), qobject_cast<QSortFilterProxyModel*>(view->table()->model())->mapToSource(top).row());
    }

    void aLongLaneKeepsItsStallWhenDecimated()
    {
        // 10,000 steps of a hand-built lane into a chart 600 pixels wide: one stall at step 7777, and a
        // step without a wait (-1), which is not drawn.
        RankStallChart chart;
        chart.resize(600, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        RankStallLane lane { 1, RankStallLane::Kind::CollectiveWait, std::vector<double>(10000, 0.5) };
        lane.ms[7777] = 42;
        lane.ms[10] = -1;
        chart.setLanes({ lane }, QStringLiteral("tiny_mlp · eager · item"));
        const QList<QPointF> points = chart.series(0)->points();
        QVERIFY2(points.size() <= 2 * 600, qPrintable(QString::number(points.size())));
        QVERIFY(points.contains(QPointF(7777, 42)));
        QVERIFY(std::none_of(points.begin(), points.end(), [](const QPointF& p) { return p.y() < 0; }));
        QCOMPARE(chart.series(0)->objectName(), QStringLiteral("rank1:wait"));
        QCOMPARE(chart.series(0)->name(), QStringLiteral("rank 1 wait in the all-reduce"));
    }

    void withoutTheRanksFilesTheChartSaysSo()
    {
        // The results.json alone, copied elsewhere.
        QTemporaryDir elsewhere;
        const QString copy = elsewhere.filePath(QStringLiteral("results.json"));
        QVERIFY(QFile::copy(runDir + QStringLiteral("/results.json"), copy));
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.resize(1600, 1200);
        w.show();
        QVERIFY(w.openResults(copy));
        RankStallChart* chart = w.ranksView()->stallChart();
        QVERIFY(w.ranksView()->chartRow() >= 0);
        QVERIFY(chart->lanes().empty());
        QVERIFY2(chart->placeholder().contains(QStringLiteral("steps.csv files are not beside this results file")),
            qPrintable(chart->placeholder()));
        QVERIFY2(chart->placeholder().contains(QDir::toNativeSeparators(elsewhere.filePath("rank-1/steps.csv"))),
            qPrintable(chart->placeholder()));

        // Rank 1's file alone: rank 1's wait is drawn, and the chart names what is missing.
        QVERIFY(QDir(elsewhere.path()).mkpath(QStringLiteral("rank-1")));
        QVERIFY(QFile::copy(runDir + QStringLiteral("/rank-1/steps.csv"), elsewhere.filePath("rank-1/steps.csv")));
        QVERIFY(w.openResults(copy));
        QCOMPARE(chart->lanes().size(), size_t(1));
        QCOMPARE(chart->lanes()[0].rank, 1);
        QVERIFY(chart->placeholder().isEmpty());
        QVERIFY2(chart->chart()->title().contains(QStringLiteral("rank 0: no ")), qPrintable(chart->chart()->title()));
    }
};

QTEST_MAIN(TestRankStall)
#include "tst_rankstall.moc"
