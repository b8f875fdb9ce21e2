// The trace loader's worker (progress, cancel, failure, the drop of a superseded load's result)
// with an injected fake load, and the folder watcher seeing trace files appear.
#include "ui/trace/tracefolderwatcher.h"
#include "ui/trace/traceloader.h"

#include "testfiles.h"
#include "tracefixtures.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace synctax;
using namespace tracefixtures;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes, QIODevice::OpenMode mode = QIODevice::WriteOnly)
{
    QFile f(path);
    return f.open(mode) && f.write(bytes) == bytes.size();
}

} // namespace

class TestTraceLoader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void loadsSeveralFilesInOrderAndSumsTheirBytes()
    {
        TraceLoader loader;
        loader.setLoadFunction(fakeLoad());
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        QSignalSpy progress(&loader, &TraceLoader::progress);
        const int id = loader.load({ QStringLiteral("/job/rank1.json"), QStringLiteral("/job/rank0.json") });
        QVERIFY(loader.isLoading());
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 30000);
        QCOMPARE(available[0][0].toInt(), id);
        const auto files = available[0][1].value<TraceFilesPtr>();
        QCOMPARE(files->size(), size_t(2));
        QCOMPARE((*files)[0].path, std::string("/job/rank1.json"));
        QCOMPARE((*files)[0].report.source.rank, std::optional<std::int64_t>(1));
        // Each fake file reports 100 of 100 bytes: the last progress is both files read.
        QVERIFY(progress.count() >= 2);
        QCOMPARE(progress.last()[1].toULongLong(), quint64(200));
        QCOMPARE(progress.last()[2].toULongLong(), quint64(200));
        QVERIFY(!loader.isLoading());
    }

    void progressGoesThroughTheAnalysisBeforeTheTraceArrives()
    {
        // The production load on a real trace: reading is the bar's first 900 thousandths, the
        // analysis and the timeline's lanes the last 100, all before traceAvailable.
        const QString path
            = QStringLiteral(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/small_resnet-mixed.pt.trace.json.gz");
        TraceLoader loader;
        QSignalSpy progress(&loader, &TraceLoader::progress);
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        int progressBeforeTrace = -1;
        connect(&loader, &TraceLoader::traceAvailable, this, [&] { progressBeforeTrace = int(progress.count()); });
        loader.load({ path });
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 60000);
        QCOMPARE(progressBeforeTrace, int(progress.count())); // nothing after the trace
        int lastRead = -1;
        int analysing = 0;
        int previous = -1;
        for (const auto& p : progress) {
            const int permille = p[4].toInt();
            QVERIFY2(permille >= previous, qPrintable(QString::number(permille)));
            previous = permille;
            if (p[5].toBool()) {
                ++analysing;
                QVERIFY2(permille >= 900 && permille <= 1000, qPrintable(QString::number(permille)));
                QCOMPARE(p[1].toULongLong(), p[2].toULongLong()); // every byte read
            } else {
                QCOMPARE(analysing, 0); // no reading after the analysis began
                QVERIFY2(permille <= 900, qPrintable(QString::number(permille)));
                lastRead = permille;
            }
        }
        QVERIFY(lastRead >= 0);
        QVERIFY2(analysing >= 3, qPrintable(QString::number(analysing))); // it moves through the phase
        QCOMPARE(progress.last()[4].toInt(), 1000);
        // The worker built the timeline's lanes: the window only shares them.
        const auto files = available[0][1].value<TraceFilesPtr>();
        QVERIFY(files->front().timeline);
        QCOMPARE(files->front().timeline->lanes.size(), files->front().trace.lanes.size());
    }

    void cancelStopsTheWorkerAndDeliversNothingOfIt()
    {
        TraceLoader loader;
        loader.setLoadFunction(fakeLoad());
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        QSignalSpy progress(&loader, &TraceLoader::progress);
        QSignalSpy cancelled(&loader, &TraceLoader::loadCancelled);
        const int id = loader.load({ QStringLiteral("/job/slow-rank0.json") });
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 1, 30000);
        QCOMPARE(progress[0][1].toULongLong(), quint64(50));
        QCOMPARE(progress[0][2].toULongLong(), quint64(100));
        QVERIFY(!progress[0][3].toString().isEmpty());
        loader.cancel();
        // Said at once, before the worker has seen the flag: the window does not wait for it.
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled[0][0].toInt(), id);
        QVERIFY(!loader.isLoading());
        // The worker's own answer (cancelled) arrives later and is dropped.
        QTRY_COMPARE_WITH_TIMEOUT(loader.droppedResults(), 1, 30000);
        QCOMPARE(available.count(), 0);
        QCOMPARE(cancelled.count(), 1);
    }

    void aSupersededLoadsLateResultIsDropped()
    {
        std::atomic<bool> release { false };
        TraceLoader loader;
        loader.setLoadFunction(fakeLoad(&release));
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        QSignalSpy progress(&loader, &TraceLoader::progress);
        const int first = loader.load({ QStringLiteral("/job/slow-rank1.json") });
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 1, 30000);
        const int second = loader.load({ QStringLiteral("/job/rank0.json") });
        QVERIFY(second != first);
        QTRY_COMPARE_WITH_TIMEOUT(available.count(), 1, 30000);
        QCOMPARE(available[0][0].toInt(), second);
        // The first worker ignores its cancel flag and finishes with a result: stale, dropped.
        release = true;
        QTRY_COMPARE_WITH_TIMEOUT(loader.droppedResults(), 1, 30000);
        QCOMPARE(available.count(), 1);
        for (const auto& p : progress)
            QVERIFY(p[0].toInt() == first || p[0].toInt() == second);
    }

    void aFailedFileIsNamedInTheMessage()
    {
        TraceLoader loader;
        loader.setLoadFunction(fakeLoad());
        QSignalSpy failed(&loader, &TraceLoader::loadFailed);
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        loader.load({ QStringLiteral("/job/rank0.json"), QStringLiteral("/job/bad-rank1.json") });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(failed[0][1].toString(),
            QStringLiteral("/job/bad-rank1.json: byte 12, event 3: expected a number for \"ts\", found a string"));
        QCOMPARE(available.count(), 0);

        // A load that gives neither a file nor words: the loader names the file itself.
        loader.setLoadFunction([](const std::string&, const auto&, const auto&) { return TraceLoadOutcome {}; });
        loader.load({ QStringLiteral("/job/empty.json") });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 30000);
        QVERIFY(failed[1][1].toString().startsWith(QStringLiteral("/job/empty.json: ")));
    }

    void watcherReportsATraceOnceItsSizeIsStable()
    {
        QTemporaryDir dir;
        TraceFolderWatcher watcher;
        watcher.setPollInterval(0); // scanned by hand below: no timing involved
        QSignalSpy ready(&watcher, &TraceFolderWatcher::fileAvailable);
        QVERIFY(watcher.watch(dir.path()));
        const QString trace = dir.filePath(QStringLiteral("host_1.1700000000.pt.trace.json"));
        QVERIFY(writeFile(trace, "{\"schemaVersion\": 1, "));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("notes.json")), "{}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("log.txt")), "x"));
        watcher.scan(); // first sight
        QCOMPARE(ready.count(), 0);
        QVERIFY(writeFile(trace, "\"traceEvents\": []}", QIODevice::Append)); // still being written
        watcher.scan();
        QCOMPARE(ready.count(), 0);
        watcher.scan(); // the same size twice: complete
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready[0][0].toString(), QFileInfo(trace).absoluteFilePath());
        watcher.scan();
        QCOMPARE(ready.count(), 1); // once only
    }

    void watcherSeesAFileAppearWhileWatching()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("old.pt.trace.json.gz")), "\x1f\x8b old"));
        TraceFolderWatcher watcher;
        watcher.setPollInterval(20);
        QSignalSpy ready(&watcher, &TraceFolderWatcher::fileAvailable);
        QVERIFY(watcher.watch(dir.path(), false)); // what was there before is not new
        const QString trace = dir.filePath(QStringLiteral("new.pt.trace.json.gz"));
        QVERIFY(writeFile(trace, "\x1f\x8b new"));
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QCOMPARE(ready[0][0].toString(), QFileInfo(trace).absoluteFilePath());
        QVERIFY(!watcher.watch(dir.filePath(QStringLiteral("missing"))));
    }
};

QTEST_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
