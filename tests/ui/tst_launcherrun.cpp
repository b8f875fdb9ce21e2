// Data-parallel runs from the window: the real synctax-run starts the ranks (LauncherRun), its
// progress lines drive the progress bar, Stop reaches the ranks, and the results open as a file would.
#include "core/config/configloader.h"
#include "core/config/presets.h"
#include "core/results/resultsloader.h"
#include "ui/configpanel.h"
#include "ui/launcherrun.h"
#include "ui/mainwindow.h"

#include "testfiles.h"
#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <QtTest>

using namespace synctax;

namespace {

constexpr int runTimeoutMs = 180000; // a generous wait on 2 shared cores; no test asserts a time

// The ddp-cpu preset, smaller: 2 Gloo ranks, tiny_mlp, two styles of 3 blocks of 10 steps.
ExperimentConfig smallDdpConfig()
{
    ExperimentConfig c = *loadConfigText(*presetText("ddp-cpu"), "ddp-cpu.yaml").config;
    c.name = "ddp-small";
    c.styles = { StyleSpec { "none", 0 }, StyleSpec { "item", 0 } };
    c.blocks = 3;
    c.minBlocks = 3;
    return c;
}

// The real launcher and what it signals.
struct Watched {
    LauncherRun run;
    QSignalSpy progress { &run, &LauncherRun::progress };
    QSignalSpy results { &run, &LauncherRun::resultsAvailable };
    QSignalSpy failed { &run, &LauncherRun::runFailed };
    Watched() { run.setProgram(QStringLiteral(SYNCTAX_RUN_BINARY)); }
};

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(QString::fromLatin1(name)); }

} // namespace

class TestLauncherRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    // The lines are app/synctax-run/progressprinter.cpp's format for a pipe, written out by hand.
    void parsesProgressLines()
    {
        LauncherProgress p;
        QVERIFY(
            parseLauncherProgress(QStringLiteral("progress:  40%, 00:12 elapsed, ETA 00:18, tiny_mlp/eager/item"), &p));
        QCOMPARE(p.fraction, 0.4);
        QCOMPARE(p.elapsedS, 12.0);
        QCOMPARE(p.remainingS, 18.0);
        QCOMPARE(p.cell, QStringLiteral("tiny_mlp/eager/item"));
        QVERIFY(parseLauncherProgress(QStringLiteral("progress:   0%, 1:02:03 elapsed, ETA --:--, warm-up"), &p));
        QCOMPARE(p.fraction, 0.0);
        QCOMPARE(p.elapsedS, 3723.0);
        QCOMPARE(p.remainingS, -1.0);
        QVERIFY(
            parseLauncherProgress(QStringLiteral("progress: 100%, 00:03 elapsed, ETA 00:00, tiny_mlp/eager/none"), &p));
        QCOMPARE(p.fraction, 1.0);
        QVERIFY(!parseLauncherProgress(QStringLiteral("synctax-run: ddp-cpu on cpu, 6 cells; results in x"), &p));
        QVERIFY(!parseLauncherProgress(QStringLiteral("wrote x/results.json and summary.csv (all ranks)"), &p));
    }

    void missingLauncherNamesItsPath()
    {
        QTemporaryDir root;
        LauncherRun run;
        const QString missing = root.filePath(QStringLiteral("no-such-dir/synctax-run"));
        run.setProgram(missing);
        QString error;
        QVERIFY(!run.start(smallDdpConfig(), root.path(), &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(!run.isRunning());
    }

    void runsTheRanksAndLoadsTheirResults()
    {
        QTemporaryDir root;
        Watched w;
        auto& [run, progress, results, failed] = w;
        QString error;
        QVERIFY2(run.start(smallDdpConfig(), root.path(), &error), qPrintable(error));
        QVERIFY(run.folder().startsWith(root.path() + QStringLiteral("/ddp-small-")));
        QVERIFY(QFileInfo::exists(run.folder() + QStringLiteral("/config-to-run.yaml")));
        QTRY_VERIFY_WITH_TIMEOUT(results.count() + failed.count() > 0, runTimeoutMs);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(results.first().at(1).toInt(), 0);

        QVERIFY2(progress.count() >= 2, qPrintable(QString::number(progress.count())));
        double last = -1;
        for (const QList<QVariant>& args : progress) {
            const double fraction = args.at(0).toDouble();
            QVERIFY(fraction >= 0 && fraction <= 1);
            QVERIFY(fraction >= last);
            last = fraction;
        }
        QVERIFY(last > progress.first().at(0).toDouble());

        const QString path = results.first().at(0).toString();
        QCOMPARE(path, run.resultsPath());
        const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
        QVERIFY(loaded.result);
        QVERIFY(loaded.result->distributed);
        QCOMPARE(int(loaded.result->distributed->ranks.size()), 2);
        for (const RankOutcome& rank : loaded.result->distributed->ranks) {
            QCOMPARE(QString::fromStdString(rank.status), QStringLiteral("ok"));
            QStringList styles;
            for (const CellResult& cell : rank.cells) {
                QVERIFY(cell.ok);
                styles << QString::fromStdString(cell.style);
            }
            // The two asked for; the runner may add its own control cells beside them.
            QVERIFY2(styles.contains(QStringLiteral("none")) && styles.contains(QStringLiteral("item")),
                qPrintable(styles.join(QLatin1Char(' '))));
        }
        QVERIFY(QFileInfo::exists(run.folder() + QStringLiteral("/rank-0/steps.csv")));
    }

    // The launcher passes SIGTERM on to the ranks, which end together (tests/runner/cli_ddp_sigterm.sh):
    // exit 130 and results.json marked stopped.
    void stopEndsTheRanks()
    {
        QTemporaryDir root;
        Watched w;
        auto& [run, progress, results, failed] = w;
        const ExperimentConfig config
            = *loadConfigFile(SYNCTAX_TEST_DATA "/configs/ddp-long.yaml").config; // far longer than this waits
        QString error;
        QVERIFY2(run.start(config, root.path(), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0 || !run.isRunning(), runTimeoutMs);
        QVERIFY(run.isRunning());
        run.stop();
        QTRY_VERIFY_WITH_TIMEOUT(results.count() + failed.count() > 0, runTimeoutMs);
        QVERIFY(!run.isRunning());
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(results.first().at(1).toInt(), 130);
        const ResultsLoadResult loaded = loadResultsFile(results.first().at(0).toString().toStdString());
        QVERIFY(loaded.result);
        QVERIFY(loaded.result->stopped);
    }

    // The window's Run with a `distributed:` config starts the launcher, not its own worker thread,
    // and opens the results as File → Open would: the Ranks dock shows.
    void windowRunsTheDdpPresetThroughTheLauncher()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.show();
        QVERIFY(w.loadPreset(QStringLiteral("ddp-cpu")));
        QVERIFY(w.configPanel()->config().distributed);
        w.launcherRun()->setProgram(QStringLiteral(SYNCTAX_RUN_BINARY));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.ranksDock()->isHidden());
        QVERIFY(w.run());
        QVERIFY(w.launcherRun()->isRunning());
        QVERIFY(!w.controller().isRunning());
        QVERIFY(!action(w, "runAction")->isEnabled());
        QVERIFY(action(w, "stopAction")->isEnabled());
        QVERIFY(w.launcherRun()->folder().startsWith(MainWindow::runsFolder() + QStringLiteral("/ddp-cpu-")));
        QVERIFY(!w.run()); // one run at a time

        QVERIFY(finished.wait(runTimeoutMs));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!w.launcherRun()->isRunning());
        QVERIFY(action(w, "runAction")->isEnabled());
        QVERIFY(!action(w, "stopAction")->isEnabled());
        QVERIFY(w.shownResult().distributed);
        QCOMPARE(int(w.shownResult().distributed->ranks.size()), 2);
        QCOMPARE(w.lastSavedRun(), w.launcherRun()->resultsPath());
        QVERIFY(!w.ranksDock()->isHidden());
    }
};

QTEST_MAIN(TestLauncherRun)
#include "tst_launcherrun.moc"
