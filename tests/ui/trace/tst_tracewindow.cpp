// The main window's side of traces: drops, File → Open Trace through an injected load, a cancel
// that leaves the view as it was, the watched folder, the export, and a picture of two ranks.
#include "ui/mainwindow.h"
#include "ui/trace/tracefiles.h"
#include "ui/trace/tracefolderwatcher.h"
#include "ui/trace/traceloader.h"
#include "ui/trace/tracesitemodel.h"
#include "ui/trace/tracestepmodel.h"
#include "ui/trace/tracetimeline.h"
#include "ui/trace/traceview.h"

#include "testfiles.h"
#include "tracefixtures.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QMimeData>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableView>
#include <QToolButton>
#include <QtTest>

using namespace synctax;
using namespace tracefixtures;

namespace {

QMimeData* urlsOf(const QStringList& paths)
{
    auto* mime = new QMimeData;
    QList<QUrl> urls;
    for (const QString& p : paths)
        urls << (p.contains("://") ? QUrl(p) : QUrl::fromLocalFile(p));
    mime->setUrls(urls);
    return mime;
}

bool dragAccepted(MainWindow& w, const QStringList& paths)
{
    std::unique_ptr<QMimeData> mime(urlsOf(paths));
    QDragEnterEvent event(QPoint(10, 10), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    event.setAccepted(false);
    QApplication::sendEvent(&w, &event);
    return event.isAccepted();
}

} // namespace

class TestTraceWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void dragAcceptsTracesResultsAndExperimentsOnly()
    {
        MainWindow w(nullptr, false);
        QVERIFY(dragAccepted(w, { "/t/rank0.pt.trace.json" }));
        QVERIFY(dragAccepted(w, { "/t/rank0.pt.trace.json.gz", "/t/rank1.pt.trace.json.gz" }));
        QVERIFY(dragAccepted(w, { "/t/results.json" }));
        QVERIFY(dragAccepted(w, { "/t/experiment.yaml" }));
        QVERIFY(!dragAccepted(w, { "/t/notes.txt" }));
        QVERIFY(!dragAccepted(w, { "/t/trace.gz" }));
        QVERIFY(!dragAccepted(w, { "/t/rank0.pt.trace.json", "/t/picture.png" }));
        QVERIFY(!dragAccepted(w, { "https://example.org/rank0.pt.trace.json" }));
    }

    void droppingSeveralTracesOpensThemAsRanksOfOneJob()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.traceLoader()->setLoadFunction(fakeLoad());
        QSignalSpy available(w.traceLoader(), &TraceLoader::traceAvailable);
        std::unique_ptr<QMimeData> mime(urlsOf({ "/job/rank1.pt.trace.json.gz", "/job/rank0.pt.trace.json.gz" }));
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(w.traceLoader()->isLoading());
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 30000);
        QCOMPARE(w.traceView()->rankCount(), 2);
        QVERIFY(w.tracePageShown());
        // Ranks in rank order, whatever the order of the drop.
        QCOMPARE(w.traceView()->report(0).source.rank, std::optional<std::int64_t>(0));
        QCOMPARE(w.traceView()->stepModel(1)->rowCount(), 3);
    }

    void aDroppedJsonIsATraceOnlyWhenItReadsLikeOne()
    {
        // A profiler trace saved as plain .json (schemaVersion, deviceProperties first) and a SyncTax
        // results file: the first goes to the trace loader, the second opens as results.
        const QString trace = QStringLiteral(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/tiny_mlp-item-nostack.json");
        const QString results = QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-app.json");
        QVERIFY(looksLikeKinetoTrace(trace));
        QVERIFY(!looksLikeKinetoTrace(results));
        QVERIFY(QFile::exists(trace) && QFile::exists(results));
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.traceLoader()->setLoadFunction(fakeLoad());
        QVERIFY(w.openDropped({ QUrl::fromLocalFile(results) }));
        QVERIFY(!w.traceLoader()->isLoading());
        QVERIFY(!w.shownResult().cells.empty());
        QVERIFY(w.openDropped({ QUrl::fromLocalFile(trace) }));
        QVERIFY(w.traceLoader()->isLoading());
        QVERIFY(!w.openDropped({ QUrl::fromLocalFile(QStringLiteral("/t/notes.txt")) }));
    }

    void aGzippedResultsFileOpensAsResultsAndAGzippedTraceAsATrace()
    {
        // A run kept gzipped is results.json.gz; HTA's traces are .json.gz without .pt.trace; a
        // damaged .gz goes to the trace loader, which says where it broke.
        const QString results = QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-at-30s.json.gz");
        const QString trace = QStringLiteral(SYNCTAX_TEST_DATA "/traces/hta/triton_example_triton_example.json.gz");
        const QString damaged = QStringLiteral(SYNCTAX_TEST_DATA "/traces/bad/corrupt.json.gz");
        QVERIFY(QFile::exists(results) && QFile::exists(trace) && QFile::exists(damaged));
        QVERIFY(!looksLikeKinetoTrace(results));
        QVERIFY(looksLikeKinetoTrace(trace));
        QVERIFY(looksLikeKinetoTrace(damaged));
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.traceLoader()->setLoadFunction(fakeLoad());
        QVERIFY(w.openDropped({ QUrl::fromLocalFile(results) }));
        QVERIFY(!w.traceLoader()->isLoading());
        QCOMPARE(int(w.shownResult().cells.size()), 24);
        QVERIFY(w.openDropped({ QUrl::fromLocalFile(trace) }));
        QVERIFY(w.traceLoader()->isLoading());
    }

    void aCancelledLoadLeavesTheViewAsItWas()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.show();
        w.traceLoader()->setLoadFunction(fakeLoad());
        QSignalSpy available(w.traceLoader(), &TraceLoader::traceAvailable);
        QSignalSpy progress(w.traceLoader(), &TraceLoader::progress);
        QSignalSpy cancelled(w.traceLoader(), &TraceLoader::loadCancelled);
        QVERIFY(w.openTraces({ "/job/rank0.json" }));
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 30000);
        const QStringList before = w.traceView()->files();
        auto* bar = w.findChild<QProgressBar*>(QStringLiteral("traceProgress"));
        auto* cancel = w.findChild<QToolButton*>(QStringLiteral("traceCancel"));
        QVERIFY(bar && cancel);
        QVERIFY(!bar->isVisible());
        QVERIFY(w.openTraces({ "/job/slow-rank1.json" }));
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 2, 30000);
        QVERIFY(bar->isVisible() && cancel->isVisible());
        QCOMPARE(bar->value(), 450); // 50 of 100 bytes: reading is the bar's first nine tenths
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!bar->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(w.traceLoader()->droppedResults(), 1, 30000);
        QCOMPARE(available.count(), 1);
        QCOMPARE(w.traceView()->files(), before);
    }

    void aFailedLoadKeepsTheViewAndNamesTheFile()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.traceLoader()->setLoadFunction(fakeLoad());
        QSignalSpy failed(w.traceLoader(), &TraceLoader::loadFailed);
        w.openTraces({ "/job/bad-rank0.json" });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(failed[0][1].toString().startsWith("/job/bad-rank0.json: byte 12"));
        QVERIFY(!w.traceView()->hasTrace());
    }

    void aWatchedFolderAppendsEachTraceAsItLands()
    {
        QTemporaryDir dir;
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.watchLoader()->setLoadFunction(fakeLoad());
        w.traceWatcher()->setPollInterval(20);
        QVERIFY(w.watchTraceFolder(dir.path()));
        for (const char* name : { "rank0.1.pt.trace.json", "rank0.2.pt.trace.json" }) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{}") == 2);
        }
        // Both files are rank 0: one rank whose steps grow by each file's three.
        QTRY_COMPARE_WITH_TIMEOUT(
            w.traceView()->rankCount() == 1 ? w.traceView()->stepModel(0)->rowCount() : -1, 6, 30000);
        QCOMPARE(w.traceView()->siteModel(0)->sites().front().count, 6);
        QVERIFY(w.tracePageShown());
    }

    void exportsTheTraceTablesAsCsv()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        QTemporaryDir dir;
        QString error;
        QVERIFY(!w.exportTrace(dir.path(), nullptr, &error));
        QCOMPARE(error, QStringLiteral("No trace is open"));
        w.traceLoader()->setLoadFunction(fakeLoad());
        QSignalSpy available(w.traceLoader(), &TraceLoader::traceAvailable);
        w.openTraces({ "/job/rank0.json", "/job/rank1.json" });
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 30000);
        QStringList written;
        QVERIFY2(w.exportTrace(dir.filePath("out"), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 6); // two CSV tables and trace-summary-rankN.json per rank
        for (const QString& f : written)
            QVERIFY2(QFile::exists(f), qPrintable(f));
    }

    // Hand-built ranks; the documentation's pictures are of real traces (synctax TRACE --screenshot).
    void screenshotOfTwoRanks()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.traceLoader()->setLoadFunction(fakeLoad());
        QSignalSpy available(w.traceLoader(), &TraceLoader::traceAvailable);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openTraces({ "/job/rank0.pt.trace.json.gz", "/job/rank1.pt.trace.json.gz" });
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 30000);
        auto sites = w.traceView()->findChildren<QTableView*>(QStringLiteral("traceSites"));
        QCOMPARE(sites.size(), 2);
        sites[0]->selectRow(0);
        QCOMPARE(w.traceView()->timeline()->highlightedSyncCount(), 3);
        QVERIFY(keepScreenshot(w.grab(), QStringLiteral("trace-view-fixture-2-ranks")));
    }
};

QTEST_MAIN(TestTraceWindow)
#include "tst_tracewindow.moc"
