// The app as a user drives it: a real CPU experiment through the window, stopped, saved, reopened.
#include "core/config/configloader.h"
#include "core/config/presets.h"
#include "core/config/stylecatalog.h"
#include "core/results/journal.h"
#include "core/results/resultsloader.h"
#include "core/results/stepcsvwriter.h"
#include "ui/charts/queuechart.h"
#include "ui/charts/stepchart.h"
#include "ui/configpanel.h"
#include "ui/mainwindow.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/comparisonview.h"
#include "ui/trace/tracefiles.h"

#include "testfiles.h"
#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include <QtTest>

using namespace synctax;

namespace {

ExperimentConfig tinyConfig()
{
    ExperimentConfig c = *loadConfigText(*presetText("cpu-quick"), "cpu-quick.yaml").config;
    c.models.resize(1); // tiny_mlp: seconds on two cores
    return c;
}

// Blocks of 400 steps of 50 ms host work: a block lasts 20 s, so a run that ends within a second of
// Stop did not wait for its block to end.
ExperimentConfig slowConfig()
{
    ExperimentConfig c = tinyConfig();
    c.hostWorkUs = 50'000;
    c.models[0].stepsPerBlock = 400;
    c.stepsPerBlock = 400;
    c.warmupMinSteps = 2;
    c.warmupMaxSteps = 4;
    c.timeBudgetS = 3600;
    return c;
}

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(QString::fromLatin1(name)); }

bool tableHasAnEstimate(const ComparisonModel& model)
{
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            if (model.data(model.index(r, c)).toString().contains(QLatin1Char('[')))
                return true;
    return false;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    // The README tells users where their runs are kept; it must name the folder the app writes to.
    void readmeNamesTheRunsFolder()
    {
        QStandardPaths::setTestModeEnabled(false);
        setApplicationIdentity();
        QString folder = MainWindow::runsFolder();
        QStandardPaths::setTestModeEnabled(true);
        const QString home = QDir::homePath();
        QVERIFY2(folder.startsWith(home), qPrintable(folder));
        folder = QStringLiteral("~") + folder.mid(home.size()) + QStringLiteral("/");
        QFile readme(QStringLiteral(SYNCTAX_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        QVERIFY2(text.contains(QStringLiteral("`") + folder + QStringLiteral("`")), qPrintable(folder));
    }

    // ctest gives this test a 1920x1080 screen (offscreen-1920x1080.json): 80% of it is 1536x864.
    void firstStartSizesTheWindowToTheScreenThenRestoresIt()
    {
        QSettings().clear();
        QSize restored;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            const QSize available = w.screen()->availableGeometry().size();
            const QSize expected
                = (QSizeF(available) * 0.8).toSize().expandedTo(w.minimumSizeHint()).boundedTo(available);
            QCOMPARE(w.size(), expected);
            QVERIFY(w.width() <= available.width() && w.height() <= available.height());
            w.resize(w.minimumSizeHint() + QSize(50, 20));
            restored = w.size();
            QVERIFY(w.close());
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), restored);
        QSettings().clear();
    }

    void emptyStateSaysWhatToDoUntilThereAreResults()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* start = w.findChild<QWidget*>(QStringLiteral("startPage"));
        QVERIFY(start);
        QVERIFY(start->isVisible());
        QVERIFY(!w.comparisonView()->isVisible());
        QString text;
        for (const QLabel* label : start->findChildren<QLabel*>())
            text += label->text() + QLatin1Char('\n');
        for (const char* what : { "preset", "Run", "Open Results" })
            QVERIFY2(text.contains(QLatin1String(what)), qPrintable(text));
        // The per-step charts say what they will show, not that a run has no cells for " ()".
        for (ChartPanel* chart :
            { static_cast<ChartPanel*>(w.stepChart()), static_cast<ChartPanel*>(w.queueChart()) }) {
            QVERIFY2(chart->placeholder().contains(QLatin1String("Run")), qPrintable(chart->placeholder()));
            QVERIFY2(!chart->placeholder().contains(QLatin1String("()")), qPrintable(chart->placeholder()));
        }

        QVERIFY(w.openResults(QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-app.json")));
        QVERIFY(!start->isVisible());
        QVERIFY(w.comparisonView()->isVisible());
        QVERIFY(w.comparisonModel()->rowCount() > 0);
    }

    void runFillsTheTableAndSaves()
    {
        MainWindow w;
        w.setQuiet(true);
        QAbstractItemModelTester tester(w.comparisonModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.configPanel()->setConfig(tinyConfig());
        w.show();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        action(w, "runAction")->trigger();
        QVERIFY(w.controller().isRunning());
        QVERIFY(!action(w, "runAction")->isEnabled());
        // The table fills while the run goes on, from live snapshots.
        QTRY_VERIFY_WITH_TIMEOUT(tableHasAnEstimate(*w.comparisonModel()), 120000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(w.controller().history().totalSteps() > 0);

        const ExperimentResult& shown = w.shownResult();
        QCOMPARE(int(shown.cells.size()), int(tinyConfig().styles.size()) + 1); // + the A/A control
        for (const CellResult& cell : shown.cells) {
            QVERIFY2(cell.ok, cell.error.c_str());
            if (cell.style != baselineStyle())
                QVERIFY2(cell.overheadPct.has_value(), cell.style.c_str());
        }
        QCOMPARE(w.comparisonModel()->rowCount(), int(shown.cells.size()));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.json"));
        QVERIFY(w.saveResults(path));
        const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
        QVERIFY(loaded.result.has_value());
        QCOMPARE(loaded.result->cells.size(), shown.cells.size());
        // Every run is also kept without asking.
        QVERIFY(QFile::exists(w.lastSavedRun()));

        MainWindow other;
        other.setQuiet(true);
        QVERIFY(other.openResults(path));
        QCOMPARE(other.comparisonModel()->rowCount(), w.comparisonModel()->rowCount());
        QCOMPARE(other.comparisonModel()->columnCount(), w.comparisonModel()->columnCount());
    }

    void stopEndsTheRunWithinAStep()
    {
        MainWindow w;
        w.setQuiet(true);
        w.configPanel()->setConfig(slowConfig());
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.run());
        // Let the loop get into its first round of 20-second blocks.
        QTest::qWait(1500);
        QVERIFY(w.controller().isRunning());
        action(w, "stopAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(w.shownResult().stopped);
        QVERIFY(!w.controller().isRunning());
        QVERIFY(action(w, "runAction")->isEnabled());
        // A stopped run can still be saved.
        QTemporaryDir dir;
        QVERIFY(w.saveResults(dir.filePath(QStringLiteral("partial.json"))));
        QVERIFY(loadResultsFile(dir.filePath(QStringLiteral("partial.json")).toStdString()).result.has_value());
    }

    void openingAFileDuringARunStopsIt()
    {
        MainWindow done;
        done.setQuiet(true);
        done.configPanel()->setConfig(tinyConfig());
        QSignalSpy doneSpy(&done, &MainWindow::runFinished);
        QVERIFY(done.run());
        QTRY_COMPARE_WITH_TIMEOUT(doneSpy.size(), 1, 120000);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.json"));
        QVERIFY(done.saveResults(path));

        MainWindow w;
        w.setQuiet(true);
        w.configPanel()->setConfig(slowConfig());
        QVERIFY(w.run());
        QTest::qWait(1000);
        QVERIFY(w.openResults(path));
        QVERIFY(!w.controller().isRunning());
        QCOMPARE(w.shownResult().cells.size(), done.shownResult().cells.size());
        // The interrupted run was kept before the file replaced it.
        QVERIFY(QFile::exists(w.lastSavedRun()));
    }

    void closingDuringARunStopsIt()
    {
        auto* w = new MainWindow;
        w->setQuiet(true);
        w->configPanel()->setConfig(slowConfig());
        w->show();
        QVERIFY(w->run());
        QTest::qWait(1000);
        QVERIFY(w->close());
        QVERIFY(!w->controller().isRunning());
        delete w;
    }

    void malformedResultsAreRefusedWithAReason()
    {
        MainWindow w;
        w.setQuiet(true);
        const QDir dir(QStringLiteral(SYNCTAX_TEST_DATA "/bad-results"));
        const QStringList files = dir.entryList({ QStringLiteral("*.json") });
        QVERIFY(files.size() >= 20);
        for (const QString& f : files) {
            QString error;
            QVERIFY2(!w.openResults(dir.filePath(f), &error), qPrintable(f));
            QVERIFY2(!error.isEmpty(), qPrintable(f));
        }
        QString error;
        QVERIFY(!w.openResults(QStringLiteral("/nonexistent/results.json"), &error));
        QVERIFY(!error.isEmpty());
    }

    void openedResultsShowTheStepsCsvBesideThem()
    {
        // A data-parallel run: rank 0's steps.csv, in its folder beside the launcher's results.
        const QString runDir = QStringLiteral(SYNCTAX_TEST_DATA "/results/ddp-cpu-steps");
        QFile csv(runDir + QStringLiteral("/rank-0/steps.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const int roundColumn = lines.front().split(QLatin1Char(',')).indexOf(QStringLiteral("round"));
        QVERIFY(roundColumn >= 0);
        uint64_t measured = 0; // rows of measured rounds (warm-up rounds are -1)
        for (int i = 1; i < lines.size(); ++i)
            measured += lines[i].split(QLatin1Char(','))[roundColumn].toInt() >= 0 ? 1 : 0;
        QVERIFY(measured > 0);

        MainWindow w;
        w.setQuiet(true);
        QString error;
        QVERIFY2(w.openResults(runDir + QStringLiteral("/results.json"), &error), qPrintable(error));
        QVERIFY(w.stepChart()->history() != nullptr);
        QCOMPARE(w.stepChart()->history()->totalSteps(), measured);
        QCOMPARE(w.stepChart()->history()->cells().size(), size_t(4)); // none, aa_control, item, postfix

        // A results file with no steps.csv beside it: the charts say where steps come from.
        QVERIFY2(w.openResults(QStringLiteral(SYNCTAX_TEST_DATA "/results/ddp-cpu.json"), &error), qPrintable(error));
        QVERIFY(w.stepChart()->history() == nullptr);
        QVERIFY2(w.stepChart()->noHistoryText().startsWith(QStringLiteral("No steps.csv beside this results file")),
            qPrintable(w.stepChart()->noHistoryText()));
    }

    void aKilledRunOpensFromItsJournal()
    {
        // What SIGKILL leaves: a journal of the blocks measured, a steps.csv whose last row is cut
        // off, no results.json.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const ConfigLoadResult config = loadConfigOrPreset("cpu-quick");
        QVERIFY(config.config);
        const ModelSpec& model = config.config->models.front();
        const GroupKey group { model.name, "eager", config.config->hostWorkUsFor(model), model.batch };
        const std::vector<CellPlan> cells { cellPlan(0, { group, "none" }), cellPlan(1, { group, "item" }) };
        {
            Journal journal(dir.filePath(QStringLiteral("journal.jsonl")).toStdString(), *config.config, {}, cells);
            for (int round = 0; round < 4; ++round) {
                journal.block(cells[0], round, 5, 1.0 + 0.01 * round);
                journal.block(cells[1], round, 5, 1.2 + 0.01 * round);
            }
        }
        QFile csv(dir.filePath(QStringLiteral("steps.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        StepRecord step;
        step.startNs = 1'000'000;
        step.dispatchedNs = 1'500'000;
        step.loggedNs = 1'600'000;
        csv.write(QByteArray::fromStdString(stepCsvHeader() + stepCsvRow(step, cells[0])));
        csv.write(QByteArray::fromStdString(stepCsvRow(step, cells[1]).substr(0, 20)));
        csv.close();

        MainWindow w;
        w.setQuiet(true);
        QString error;
        QVERIFY2(w.openResults(dir.filePath(QStringLiteral("journal.jsonl")), &error), qPrintable(error));
        const ExperimentResult& shown = w.shownResult();
        QVERIFY(shown.stopped);
        QCOMPARE(shown.cells.size(), size_t(2));
        QVERIFY(shown.cells[1].overheadPct.has_value());
        QCOMPARE(QString::fromStdString(shown.groups.front().stopReason), QStringLiteral("killed"));
        QVERIFY(std::any_of(shown.notes.begin(), shown.notes.end(),
            [](const std::string& note) { return note.rfind("rebuilt from ", 0) == 0; }));
        // The cut-off row is left out; the whole one shows.
        QVERIFY(w.stepChart()->history() != nullptr);
        QCOMPARE(w.stepChart()->history()->totalSteps(), uint64_t(1));
        // Its folder opens as the same run, with the steps.csv in it; and a folder or a journal given
        // to the app (its command line, a drop, Recent) opens as results, not as a config.
        QVERIFY2(w.openResults(dir.path(), &error), qPrintable(error));
        QVERIFY(w.shownResult().stopped);
        QVERIFY(w.stepChart()->history() != nullptr);
        QVERIFY(opensAsResults(dir.path()));
        QVERIFY(opensAsResults(dir.filePath(QStringLiteral("journal.jsonl"))));
        QVERIFY(!opensAsResults(QStringLiteral(SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h200")));
        QVERIFY(isProbeRunFolder(QStringLiteral(SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h200")));
        QVERIFY(w.openDropped({ QUrl::fromLocalFile(dir.path()) }));
        QTRY_VERIFY(w.shownResult().stopped);
    }

    void experimentYamlRoundTripsThroughTheWindow()
    {
        MainWindow w;
        w.setQuiet(true);
        QVERIFY(w.loadPreset(QStringLiteral("regimes")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("exp.yaml"));
        QVERIFY(w.saveConfig(path));
        MainWindow other;
        other.setQuiet(true);
        QVERIFY(other.openConfig(path));
        QCOMPARE(other.configPanel()->config().name, w.configPanel()->config().name);
        QCOMPARE(other.configPanel()->config().styles.size(), w.configPanel()->config().styles.size());
        QFile bad(dir.filePath(QStringLiteral("bad.yaml")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("synctax: 1\nmodels: [tiny_mlp]\nstyles: [none, itme]\n");
        bad.close();
        QString error;
        QVERIFY(!other.openConfig(bad.fileName(), &error));
        QVERIFY2(error.contains(QStringLiteral("bad.yaml:3:")), qPrintable(error));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
