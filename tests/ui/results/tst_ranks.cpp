// The Ranks dock: a data-parallel run's cells rank by rank. The runs are real: tests/data/results/
// holds the launcher's results.json of `synctax-run run ddp-cpu` (styles on rank 0) and of the same
// preset with `sync_on: all` (tests/data/results/README.md). Expected values are read in the test
// straight from the loaded rank cells, apart from the model's lookup.
#include "core/results/ranktable.h"
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/text/format.h"
#include "ui/mainwindow.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/ranksmodel.h"
#include "ui/results/ranksview.h"

#include "testfiles.h"
#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>

#include <QtTest>

using namespace synctax;

namespace {

QString dataFile(const char* name) { return QStringLiteral(SYNCTAX_TEST_DATA "/results/") + QLatin1String(name); }

ExperimentResult load(const char* name)
{
    const ResultsLoadResult loaded = loadResultsFile(dataFile(name).toStdString());
    return loaded.result.value_or(ExperimentResult {});
}

const CellResult* cellOf(const RankOutcome& rank, const std::string& style)
{
    for (const CellResult& c : rank.cells) {
        if (c.style == style)
            return &c;
    }
    return nullptr;
}

int rowOf(const RanksModel& model, const QString& style)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 1).data().toString() == style)
            return row;
    }
    return -1;
}

} // namespace

class TestRanks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void oneRowPerCellAndTwoColumnsPerRank()
    {
        const ExperimentResult r = load("ddp-cpu.json");
        QVERIFY(r.distributed);
        QCOMPARE(r.distributed->ranks.size(), size_t(2));
        RanksModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(r);
        // ddp-cpu.yaml: tiny_mlp, eager, styles none, item, progress_bar_postfix, and the A/A control the
        // runner adds; 2 ranks.
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 2 + 2 * 2 + 1);
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers,
            QStringList(
                { "model", "style", "rank 0 tax", "rank 0 wait", "rank 1 tax", "rank 1 wait", "single-process tax" }));
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("tiny_mlp"));
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("none"));
        QCOMPARE(model.index(0, model.taxColumn(1)).data().toString(), QStringLiteral("baseline"));
        QCOMPARE(model.statusText(), QStringLiteral("rank 0: ok · rank 1: ok"));
        QVERIFY(model.headerData(model.taxColumn(1), Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("rank 1: ok\n")));

        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
        // A rank's own results.json says which rank wrote it: its cells are the ordinary table's.
        ExperimentResult own = r;
        own.distributed->rank = 1;
        model.setResult(own);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.hasRanks());
    }

    void eachCellIsThatRanksCell()
    {
        const ExperimentResult r = load("ddp-cpu.json");
        RanksModel model;
        model.setResult(r);
        const int row = rowOf(model, QStringLiteral("item"));
        QVERIFY(row >= 0);
        const RankOutcome& rank0
            = r.distributed->ranks[0].rank == 0 ? r.distributed->ranks[0] : r.distributed->ranks[1];
        const RankOutcome& rank1
            = r.distributed->ranks[0].rank == 1 ? r.distributed->ranks[0] : r.distributed->ranks[1];
        const CellResult* item0 = cellOf(rank0, "item");
        const CellResult* item1 = cellOf(rank1, "item");
        const CellResult* none1 = cellOf(rank1, "none");
        QVERIFY(item0 && item1 && none1 && item0->overheadPct && item1->collectiveWaitMs && none1->collectiveWaitMs);

        QCOMPARE(model.index(row, model.taxColumn(0)).data().toString(),
            QString::fromStdString(formatOverhead(*item0->overheadPct)));
        QCOMPARE(model.index(row, model.waitColumn(1)).data().toString(),
            QString::asprintf("%.3f ms", item1->collectiveWaitMs->median));
        QCOMPARE(model.index(row, model.waitColumn(1)).data(RanksModel::SortRole).toDouble(),
            item1->collectiveWaitMs->median);
        const double extra = item1->collectiveWaitMs->median - none1->collectiveWaitMs->median;
        QCOMPARE(*model.extraWaitMs(row, 1), extra);

        for (const CellResult& single : r.distributed->singleProcess) {
            if (single.style != "item")
                continue;
            QVERIFY(single.overheadPct);
            QCOMPARE(model.index(row, model.singleProcessColumn()).data().toString(),
                QString::fromStdString(formatOverhead(*single.overheadPct)));
        }
    }

    void theSentenceSaysHowFarRankZerosStallSpreads()
    {
        const ExperimentResult r = load("ddp-cpu.json");
        RanksModel model;
        model.setResult(r);
        // The logging style with the largest tax on rank 0, found here from the cells; the control
        // (no logging) is no such style even where its noise measured the largest number.
        const RankOutcome& rank0
            = r.distributed->ranks[0].rank == 0 ? r.distributed->ranks[0] : r.distributed->ranks[1];
        const RankOutcome& rank1
            = r.distributed->ranks[0].rank == 1 ? r.distributed->ranks[0] : r.distributed->ranks[1];
        const CellResult* worst = nullptr;
        for (const CellResult& c : rank0.cells) {
            if (c.style != "none" && c.style != "aa_control" && c.overheadPct
                && (!worst || c.overheadPct->estimate > worst->overheadPct->estimate))
                worst = &c;
        }
        QVERIFY(worst);
        const double extra
            = cellOf(rank1, worst->style)->collectiveWaitMs->median - cellOf(rank1, "none")->collectiveWaitMs->median;
        const QString text = model.spreadText();
        QVERIFY2(text.startsWith(
                     QString::fromStdString(worst->style + " costs rank 0 " + formatOverhead(*worst->overheadPct))),
            qPrintable(text));
        QVERIFY2(text.contains(
                     QString::asprintf("%.3f ms %s than under none", std::abs(extra), extra >= 0 ? "more" : "less")),
            qPrintable(text));
    }

    void theSentenceNeverNamesTheControl()
    {
        // In this run the control's noise (+14.0% on rank 0) measured more than item's +5.3%.
        const ExperimentResult r = load("ddp-cpu-steps/results.json");
        QVERIFY(r.distributed);
        RanksModel model;
        model.setResult(r);
        const QString text = model.spreadText();
        QVERIFY2(text.startsWith(QStringLiteral("item costs rank 0 ")), qPrintable(text));
        QCOMPARE(model.rowStyle(model.worstRow()), std::string("item"));
    }

    void aRankCellShowsTheBarrierReplaysPredictionBesideItsTax()
    {
        ExperimentResult r = load("ddp-cpu.json");
        QVERIFY(r.distributed);
        RankOutcome& rank1 = r.distributed->ranks[0].rank == 1 ? r.distributed->ranks[0] : r.distributed->ranks[1];
        CellResult* item = nullptr;
        for (CellResult& c : rank1.cells)
            item = c.style == "item" ? &c : item;
        QVERIFY(item && item->overheadPct);
        RankPrediction p;
        p.tax.overheadPct = 3.25;
        p.tax.model = "replay";
        p.stepMs = 1.5;
        p.collectiveWaitMs = 0.75;
        item->rankPrediction = p;
        RanksModel model;
        model.setResult(r);
        const QModelIndex tax = model.index(rowOf(model, QStringLiteral("item")), model.taxColumn(1));
        QCOMPARE(tax.data().toString(), QString::fromStdString(formatOverhead(*item->overheadPct)) + "  pred +3.2%");
        QVERIFY2(tax.data(Qt::ToolTipRole)
                     .toString()
                     .endsWith("predicted (replay model's barrier replay): step 1.500 ms, all-reduce wait 0.750 ms, "
                               "tax +3.2%"),
            qPrintable(tax.data(Qt::ToolTipRole).toString()));
        // Rank 0's cell of the same row carries none, and shows none.
        const QModelIndex rank0 = model.index(tax.row(), model.taxColumn(0));
        QVERIFY(!rank0.data().toString().contains("pred"));
    }

    void aRankThatDidNotEndWellSaysSoInItsHeader()
    {
        ExperimentResult r = load("ddp-cpu-all-ranks.json");
        QVERIFY(r.distributed);
        r.distributed->ranks[1].status = "hung";
        r.distributed->ranks[1].message = "killed after 30 s without a step";
        RanksModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(r);
        const QString tip = model.headerData(model.waitColumn(1), Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(
            tip.startsWith(
                QStringLiteral("rank %1: hung (killed after 30 s without a step)").arg(r.distributed->ranks[1].rank)),
            qPrintable(tip));
        QVERIFY(model.statusText().contains(QStringLiteral("hung")));
        // With every rank logging, rank 1 pays a tax of its own.
        const int row = rowOf(model, QStringLiteral("item"));
        QVERIFY(model.index(row, model.taxColumn(1)).data(RanksModel::SortRole).isValid());
    }

    void theDockShowsOnlyForADataParallelRun()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(w.ranksDock()->isHidden());
        QVERIFY(w.openResults(dataFile("ddp-cpu.json")));
        QVERIFY(!w.ranksDock()->isHidden());
        QCOMPARE(w.ranksModel()->rowCount(), 4);
        QCOMPARE(w.ranksView()->table()->model()->rowCount(), 4);
        QVERIFY(!w.ranksView()->spreadLabel()->text().isEmpty());
        // Raised over the queue chart it shares a tab with, so that it is seen.
        QTRY_VERIFY(!w.ranksView()->table()->visibleRegion().isEmpty());
        QVERIFY(keepScreenshot(w.grab(), QStringLiteral("ranks-ddp-cpu")));

        // The export adds the runner's per-rank table.
        QTemporaryDir out;
        QStringList written;
        QVERIFY(w.exportAll(out.path(), &written));
        QVERIFY(written.contains(out.filePath(QStringLiteral("ranks.txt"))));
        QFile ranks(out.filePath(QStringLiteral("ranks.txt")));
        QVERIFY(ranks.open(QIODevice::ReadOnly));
        QCOMPARE(ranks.readAll().toStdString(), formatRankTable(load("ddp-cpu.json")).substr(1));

        QVERIFY(w.openResults(QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-app.json")));
        QVERIFY(w.ranksDock()->isHidden());
        QCOMPARE(w.ranksModel()->rowCount(), 0);
        QVERIFY(w.comparisonModel()->rowCount() > 0);
        QTemporaryDir plainOut;
        QVERIFY(w.exportAll(plainOut.path(), &written));
        QVERIFY(!QFile::exists(plainOut.filePath(QStringLiteral("ranks.txt"))));
    }
};

QTEST_MAIN(TestRanks)
#include "tst_ranks.moc"
