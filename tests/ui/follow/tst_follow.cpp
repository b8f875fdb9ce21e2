// Following a probe's run folder while another process writes it (scripts/replay-probe-run.py):
// nothing dropped at 1,000 steps/s and the charts close behind the writer, the job's end, a crash
// mid-write and a folder deleted while followed each said in the banner, the what-if's loop
// replayed in the Teach window, the exports and the comparison of two runs, and the window's entries.
#include "ui/charts/abtaxchart.h"
#include "ui/charts/phasestepchart.h"
#include "ui/charts/sitewaitchart.h"
#include "ui/follow/followcalibrator.h"
#include "ui/follow/followcompare.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followrun.h"
#include "ui/follow/followview.h"
#include "ui/mainwindow.h"
#include "ui/teach/teachview.h"
#include "ui/trace/tracewhatifpanel.h"

#include "testfiles.h"

#include <QAction>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace synctax;

namespace {

const QString script = QStringLiteral(SYNCTAX_SOURCE_DIR "/scripts/replay-probe-run.py");
const QString finishedRun = QStringLiteral(SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h200");

// The writer: another process, as a user's job is.
std::unique_ptr<QProcess> startWriter(const QString& dir, int steps, int stepsPerS, const QStringList& more = {})
{
    auto writer = std::make_unique<QProcess>();
    writer->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    writer->start(QStringLiteral("python3"),
        QStringList { script, QStringLiteral("--synthetic-steps"), QString::number(steps),
            QStringLiteral("--steps-per-s"), QString::number(stepsPerS) }
            + more + QStringList { dir });
    return writer;
}

// A synthetic run written to its end before anything follows it.
bool writeFinishedRun(const QString& dir, int steps, int stepsPerS)
{
    auto writer = startWriter(dir, steps, stepsPerS);
    return writer->waitForFinished(30000) && writer->exitStatus() == QProcess::NormalExit && writer->exitCode() == 0;
}

// The last step the writer has written whole, read from the tail of its steps.jsonl: -1 when none.
qint64 writersLastStep(const QString& dir)
{
    QFile file(dir + QStringLiteral("/steps.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const qint64 size = file.size();
    file.seek(std::max<qint64>(0, size - 8192));
    QByteArray tail = file.readAll();
    const qsizetype end = tail.lastIndexOf('\n');
    if (end < 0)
        return -1;
    tail.truncate(end);
    const QByteArray line = tail.mid(tail.lastIndexOf('\n') + 1);
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("\"step\":\\s*(\\d+)")).match(QString::fromUtf8(line));
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

struct Window {
    MainWindow window { nullptr, false };
    Window()
    {
        window.setQuiet(true);
        window.resize(1600, 1000);
        window.show();
    }
    FollowView* view() { return window.followView(); }
    const FollowRun& run() { return view()->controller()->run(); }
};

} // namespace

class TestFollow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void followsAWriterAt1000StepsPerSecondWithNothingDropped()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        Window w;
        // Followed before the job starts: the banner waits for it.
        QVERIFY(w.window.followRun(dir));
        QVERIFY(w.window.followPageShown());
        QVERIFY2(
            w.view()->bannerText().contains(QStringLiteral("Waiting for the job")), qPrintable(w.view()->bannerText()));
        constexpr int steps = 6000;
        constexpr int rate = 1000;
        auto writer = startWriter(dir, steps, rate);
        QVERIFY(writer->waitForStarted());
        qint64 worstLag = 0;
        int samples = 0;
        while (writer->state() != QProcess::NotRunning) {
            QTest::qWait(100);
            // What is drawn, against what the writer had written by then: at 1,000 steps/s one
            // second behind is 1,000 steps.
            const qint64 drawn = qint64(w.view()->stepChart()->lastDrawnStep());
            const qint64 written = writersLastStep(dir);
            if (written > 200 && writer->state() != QProcess::NotRunning) {
                worstLag = std::max(worstLag, written - drawn);
                ++samples;
            }
        }
        QCOMPARE(writer->exitCode(), 0);
        QVERIFY2(samples > 20, qPrintable(QString::number(samples)));
        QVERIFY2(
            worstLag <= rate, qPrintable(QStringLiteral("the chart was %1 steps behind the writer").arg(worstLag)));
        QTRY_COMPARE_WITH_TIMEOUT(w.view()->stepChart()->lastDrawnStep(), double(steps - 1), 5000);
        QCOMPARE(w.run().stepCount(), size_t(steps));
        QCOMPARE(w.run().missingSteps(), 0);
        QCOMPARE(w.run().outOfOrderSteps(), 0);
        QCOMPARE(w.view()->controller()->drainStats().steps, uint64_t(steps));
        QVERIFY(w.view()->stepChart()->drawnPoints() > 0);
        QCOMPARE(w.view()->stepChart()->drawnGpuPoints(), 0); // a synthetic run times no GPU: nothing drawn for it
        QVERIFY(!w.view()->siteChart()->labels().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Ended, 5000);
        qInfo("worst lag %lld steps over %d samples; longest drain %.1f ms", static_cast<long long>(worstLag), samples,
            w.view()->controller()->drainStats().maxDrainMs);
    }

    void aFullQueueHoldsTheReaderBackAndDropsNothing()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        QVERIFY(writeFinishedRun(dir, 3000, 20000));
        FollowView view;
        // One small update at a time: the worker waits for the window again and again.
        view.controller()->setQueueCapacity(1);
        view.controller()->setStepsPerPoll(7);
        view.controller()->setDrainIntervalMs(5);
        QVERIFY(view.follow(dir));
        QTRY_COMPARE_WITH_TIMEOUT(view.controller()->run().state(), FollowState::Ended, 30000);
        QCOMPARE(view.controller()->run().stepCount(), size_t(3000));
        QCOMPARE(view.controller()->run().missingSteps(), 0);
        QVERIFY(view.controller()->drainStats().queueFullWaits > 0);
        QCOMPARE(view.stepChart()->lastDrawnStep(), 2999.0);
        // Its capture holds no GPU work: the what-if's status says there is none, and why, rather
        // than that it was calibrated.
        QTRY_VERIFY2_WITH_TIMEOUT(
            view.whatIfStatus().startsWith(QStringLiteral("No what-if from")), qPrintable(view.whatIfStatus()), 20000);
        QVERIFY2(!view.whatIfStatus().contains(QStringLiteral("calibrated")), qPrintable(view.whatIfStatus()));
    }

    void countedBlocksStepsAreNotMissingDroppedOnesAre()
    {
        // Block 0 timed (steps 0-9), block 1 only counted (10-19: no lines), block 2 timed with
        // steps 25-29 dropped by the writer.
        const auto step = [](int64_t n) {
            ProbeStep s;
            s.step = n;
            s.stage = "block";
            s.block = int(n / 10);
            s.style = "calib";
            return s;
        };
        ProbeFollowUpdate first;
        for (int64_t n = 0; n < 10; ++n)
            first.steps.push_back(step(n));
        FollowRun run;
        run.apply(std::move(first));
        ProbeFollowUpdate second;
        for (int64_t n = 20; n < 25; ++n)
            second.steps.push_back(step(n));
        run.apply(std::move(second));
        QCOMPARE(run.missingSteps(), 10); // the counted block's line has not come yet
        ProbeFollowUpdate third;
        ProbeBlock counted;
        counted.block = 1;
        counted.style = "none";
        counted.steps = 10;
        counted.firstStep = 10;
        counted.timed = false;
        third.blocks.push_back(counted);
        third.steps.push_back(step(30));
        run.apply(std::move(third));
        QCOMPARE(run.missingSteps(), 5);
        QCOMPARE(run.countedSteps(), 10);
    }

    void aFinishedFolderFollowedShowsTheTaxNarrowingOverItsRounds()
    {
        // Read in one poll, its rounds still come as a follower from the start would have drawn
        // them: a point per round (at most 40), rounds rising, the last the probe's own answer.
        QTemporaryDir tmp;
        FollowView view;
        QVERIFY(writeFinishedRun(tmp.filePath(QStringLiteral("run")), 1200, 20000));
        QVERIFY(view.follow(tmp.filePath(QStringLiteral("run"))));
        QTRY_COMPARE_WITH_TIMEOUT(view.controller()->run().state(), FollowState::Ended, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(view.controller()->run().abFinal().has_value(), 10000);
        const std::vector<FollowAbPoint>& points = view.controller()->run().ab();
        const int rounds = view.controller()->run().abFinal()->rounds;
        QVERIFY2(rounds > 10, qPrintable(QString::number(rounds)));
        QVERIFY2(points.size() >= size_t(std::min(rounds, 40)), qPrintable(QString::number(points.size())));
        QVERIFY(points.size() <= 41);
        for (size_t i = 1; i < points.size(); ++i)
            QVERIFY(points[i].rounds > points[i - 1].rounds);
        QCOMPARE(points.back().rounds, rounds);
    }

    // A replayed run of `steps` steps followed in the window until it reads as ended.
    static bool followedToItsEnd(Window& w, const QString& dir, int steps, int stepsPerS)
    {
        if (!w.window.followRun(dir))
            return false;
        auto writer = startWriter(dir, steps, stepsPerS);
        return writer->waitForFinished(30000)
            && QTest::qWaitFor([&] { return w.run().state() == FollowState::Ended; }, 10000);
    }

    void saysWhenTheJobEnded()
    {
        QTemporaryDir tmp;
        Window w;
        QVERIFY(followedToItsEnd(w, tmp.filePath(QStringLiteral("run")), 500, 2000));
        QVERIFY(w.run().end());
        QVERIFY2(
            w.view()->bannerText().startsWith(QStringLiteral("The job ended")), qPrintable(w.view()->bannerText()));
        QVERIFY2(w.view()->bannerText().contains(QStringLiteral("exit code 0")), qPrintable(w.view()->bannerText()));
        // The writer gives the probe 1% of each step, after the optimizer's: the banner says it.
        const std::optional<FollowRun::OwnTime> own = w.run().probeOwnTime();
        QVERIFY(own);
        QVERIFY2(own->us > 0.008 * own->stepMs * 1e3 && own->us < 0.012 * own->stepMs * 1e3,
            qPrintable(QStringLiteral("%1 us of a %2 ms step").arg(own->us).arg(own->stepMs)));
        QVERIFY2(w.view()->bannerText().contains(QStringLiteral("the probe's own time after each step")),
            qPrintable(w.view()->bannerText()));
        // At the end, end.json's writer time too (the replay gives its writer half a percent of a step).
        QVERIFY2(w.view()->bannerText().contains(QStringLiteral("its writer thread's CPU: 2.5 µs a step")),
            qPrintable(w.view()->bannerText()));
        QCOMPARE(w.view()->stepChart()->lastDrawnStep(), 499.0);
        QTRY_VERIFY(!w.view()->controller()->isFollowing());
    }

    void aOneStepRunSaysOneStep()
    {
        QTemporaryDir tmp;
        Window w;
        QVERIFY(followedToItsEnd(w, tmp.filePath(QStringLiteral("run")), 1, 100));
        const QString banner = w.view()->bannerText();
        QVERIFY2(banner.contains(QStringLiteral(", 1 step;")) && !banner.contains(QStringLiteral("1 steps")),
            qPrintable(banner));
    }

    void anEndedRunsTotalsAddUpAndItsCaptureCheckIsSaid()
    {
        // A real H100 run whose A/B blocks were counted: end.json's totals, which add up.
        Window w;
        QVERIFY(w.window.followRun(QStringLiteral(SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h100")));
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Ended, 10000);
        const QString banner = w.view()->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("4852 steps (1231 timed step by step, 3621 counted in blocks)")),
            qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("; 1231 step lines read, the last step")), qPrintable(banner));
        QVERIFY2(banner.contains(QStringLiteral("the loop after the profiled capture against before it: +6.2% "
                                                "[-10.7, +23.4]")),
            qPrintable(banner));
        // An ended run is whole: nothing in the view says "so far".
        QTRY_VERIFY2_WITH_TIMEOUT(w.view()->whatIfStatus().contains(QStringLiteral("calibrated to the run's")),
            qPrintable(w.view()->whatIfStatus()), 20000);
        QVERIFY2(!w.view()->bannerText().contains(QStringLiteral("so far")), qPrintable(w.view()->bannerText()));
    }

    void aCrashMidWriteIsSaidAndWhatWasReadStays()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        Window w;
        QVERIFY(w.window.followRun(dir));
        auto writer = startWriter(dir, 5000, 2000, { QStringLiteral("--crash-at-step"), QStringLiteral("700") });
        QVERIFY(writer->waitForFinished(30000));
        QCOMPARE(writer->exitCode(), 1);
        QVERIFY(!QFile::exists(dir + QStringLiteral("/end.json")));
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Crashed, 10000);
        QVERIFY2(
            w.view()->bannerText().startsWith(QStringLiteral("The job crashed")), qPrintable(w.view()->bannerText()));
        // Its figures joined with "; " and its closing sentence last, never ".;".
        QVERIFY2(!w.view()->bannerText().contains(QStringLiteral(".;"))
                && w.view()->bannerText().contains(QStringLiteral(" µs. What was read stays shown.")),
            qPrintable(w.view()->bannerText()));
        // Step 700's line was cut off: the steps before it are drawn, and nothing after.
        QCOMPARE(w.view()->stepChart()->lastDrawnStep(), 699.0);
        QCOMPARE(w.run().stepCount(), size_t(700));
        QVERIFY(!w.run().end());
    }

    void aFolderDeletedWhileFollowedIsSaidAndWhatWasReadStays()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        Window w;
        QVERIFY(w.window.followRun(dir));
        auto writer = startWriter(dir, 100000, 1000);
        QVERIFY(writer->waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->stepChart()->lastDrawnStep() >= 300, 15000);
        writer->kill();
        QVERIFY(writer->waitForFinished(5000));
        QVERIFY(QDir(dir).removeRecursively());
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Deleted, 10000);
        QVERIFY2(w.view()->bannerText().startsWith(QStringLiteral("The folder was deleted")),
            qPrintable(w.view()->bannerText()));
        QVERIFY(w.view()->stepChart()->lastDrawnStep() >= 300);
        QVERIFY(w.view()->stepChart()->drawnPoints() > 0);
        QTRY_VERIFY(!w.view()->controller()->isFollowing());
        // What was read can still be exported.
        QTemporaryDir out;
        QStringList written;
        QString error;
        QVERIFY2(w.window.exportAll(out.path(), &written, &error), qPrintable(error));
    }

    void aGpuBoundRunsWhatIfTakesItsBlocksFirstSteps()
    {
        // As `synctax-run trace DIR` does (test_probefolder): its later steps waited for a full
        // launch queue, and the what-if followed says it took the first steps after each drain.
        Window w;
        QVERIFY(w.window.followRun(QStringLiteral(SYNCTAX_TEST_DATA "/probe/resnet50-h0-h200")));
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Ended, 10000);
        QVERIFY(!w.run().blockFirstStepsMs().empty());
        QCOMPARE(w.run().blockFirstStepsMs().size(), w.run().phasesMs().size());
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->calibrator()->loop() != nullptr, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(w.view()->calibrator()->phaseRows(), int(w.run().phasesMs().size()), 30000);
        const std::string how = w.view()->calibrator()->loop()->calibration.how;
        QVERIFY2(how.find("each block's first step after its drain") != std::string::npos, how.c_str());
        // The measurement beside it as the window wraps it, not cut at a terminal's 80 columns.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.view()->whatIfPanel()->note().contains(QStringLiteral("Measured in your loop")), 10000);
        const QString note = w.view()->whatIfPanel()->note();
        QVERIFY2(note.contains(QStringLiteral("29 rounds of 9-step blocks in random order, paired")), qPrintable(note));
        QVERIFY2(note.contains(QRegularExpression(
                     QStringLiteral("the prediction is [0-9.]+ points (above|below) the measurement, (in|out)side"))),
            qPrintable(note));
    }

    void aFinishedRunShowsItsTaxWhatIfAndReplaysItsLoopInTeach()
    {
        Window w;
        QVERIFY(w.window.followRun(finishedRun));
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Ended, 10000);
        // The A/B the probe measured: its own answer closes the curve (tests/data/probe/README.md).
        QVERIFY(w.run().abFinal());
        QCOMPARE(w.view()->taxChart()->drawnRounds(), 53);
        QVERIFY(w.view()->taxChart()->lastInterval());
        QVERIFY(w.view()->taxChart()->lastInterval()->low > 0);
        // The what-if, calibrated to the folder's 53 calibration blocks, with its uncertainty.
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->calibrator()->loop() != nullptr, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(w.view()->calibrator()->phaseRows(), 53, 30000);
        QVERIFY(!w.view()->whatIfPanel()->whatIf().rows.empty());
        QVERIFY2(w.view()->whatIfPanel()->note().contains(QStringLiteral("Uncertainty")),
            qPrintable(w.view()->whatIfPanel()->note()));
        QVERIFY2(w.view()->whatIfPanel()->note().contains(QStringLiteral("Measured in your loop")),
            qPrintable(w.view()->whatIfPanel()->note()));
        QVERIFY(w.view()->replayButton()->isEnabled());
        QTest::mouseClick(w.view()->replayButton(), Qt::LeftButton);
        TeachView* teach = w.window.teachView();
        QVERIFY(teach->isVisible());
        QVERIFY(teach->hasLaunchSequence());
        QVERIFY2(teach->modelLabel().contains(QStringLiteral("tiny_mlp-h0-h200")), qPrintable(teach->modelLabel()));
    }

    void exportsTheChartsReportAndData()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        auto writer = startWriter(dir, 1500, 20000);
        QVERIFY(writer->waitForFinished(30000));
        Window w;
        QVERIFY(w.window.followRun(dir));
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Ended, 10000);
        QTemporaryDir out;
        QStringList written;
        QString error;
        QVERIFY2(w.window.exportAll(out.path(), &written, &error), qPrintable(error));
        for (const char* name : { "step-time.png", "step-time.svg", "step-time.pdf", "sync-wait.png", "sync-wait.svg",
                 "measured-tax.png", "report.pdf", "steps.csv", "sites.csv", "blocks.csv", "tax.csv" })
            QVERIFY2(written.contains(out.filePath(QString::fromLatin1(name))), name);
        QFile steps(out.filePath(QStringLiteral("steps.csv")));
        QVERIFY(steps.open(QIODevice::ReadOnly));
        QCOMPARE(steps.readAll().count('\n'), 1501);
    }

    void comparesTwoRunsOfTheLoop()
    {
        QTemporaryDir tmp;
        const QString a = tmp.filePath(QStringLiteral("before"));
        const QString b = tmp.filePath(QStringLiteral("after"));
        auto writerA = startWriter(a, 1200, 20000);
        auto writerB = startWriter(b, 1200, 20000);
        QVERIFY(writerA->waitForFinished(30000));
        QVERIFY(writerB->waitForFinished(30000));
        Window w;
        QVERIFY(w.window.followRun(a));
        QTRY_COMPARE_WITH_TIMEOUT(w.run().state(), FollowState::Ended, 10000);
        FollowCompareDialog* dialog = w.view()->compareWith(b);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 10000);
        const auto& rows = dialog->rows();
        QVERIFY(std::any_of(rows.begin(), rows.end(),
            [](const FollowCompareRow& r) { return r.what.startsWith(QStringLiteral("host step")); }));
        QVERIFY(std::any_of(rows.begin(), rows.end(),
            [](const FollowCompareRow& r) { return r.what.startsWith(QStringLiteral("wait at")); }));
        QCOMPARE(dialog->table()->rowCount(), int(rows.size()));
        // A folder with no run in it says so.
        QTemporaryDir empty;
        FollowCompareDialog* none = w.view()->compareWith(empty.path());
        QSignalSpy failed(none, &FollowCompareDialog::comparisonFailed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    }

    // An --ab item run beside an --ab defer run: each A/B named for what it measured, and no change
    // or verdict between a tax and a saving; two item runs keep both.
    void comparingAnItemRunWithADeferRunNamesBothMeasures()
    {
        const std::atomic<bool> cancel { false };
        const std::string data = SYNCTAX_TEST_DATA;
        const FollowRun item = readRunFolder(data + "/probe/tiny_mlp-h0-h100", cancel);
        const FollowRun defer = readRunFolder(data + "/probe/defer-log-cpu", cancel);
        QVERIFY(!item.ab().empty() && !defer.ab().empty());
        const auto abRow = [](const std::vector<FollowCompareRow>& rows) {
            const auto it = std::find_if(rows.begin(), rows.end(), [](const FollowCompareRow& r) {
                return r.what.startsWith(QStringLiteral("measured ")) && r.what.endsWith(QStringLiteral(", 95%"));
            });
            return it == rows.end() ? FollowCompareRow {} : *it;
        };
        const FollowCompareRow mixed = abRow(compareRuns(item, defer));
        QVERIFY2(mixed.what.contains(QStringLiteral("an added loss.item()"))
                && mixed.what.contains(QStringLiteral("deferring probe/tests/scripts/defer_log.py:26")),
            qPrintable(mixed.what));
        QVERIFY(mixed.change.isEmpty() && mixed.verdict.isEmpty());
        const FollowCompareRow same = abRow(compareRuns(item, item));
        QCOMPARE(same.what, QStringLiteral("measured tax of an added loss.item(), 95%"));
        QVERIFY(!same.change.isEmpty() && !same.verdict.isEmpty());
    }

    void theFileMenuAndADropFollowAFolder()
    {
        Window w;
        auto* action = w.window.findChild<QAction*>(QStringLiteral("followRunAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+F")));
        // A finished folder opens as its trace, as before; one still written is followed.
        QVERIFY(!MainWindow::isLiveProbeFolder(finishedRun));
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        auto writer = startWriter(dir, 100000, 500);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir + QStringLiteral("/probe.json")), 10000);
        QVERIFY(MainWindow::isLiveProbeFolder(dir));
        QVERIFY(MainWindow::acceptsDrop({ QUrl::fromLocalFile(dir) }));
        QVERIFY(w.window.openDropped({ QUrl::fromLocalFile(dir) }));
        QVERIFY(w.window.followPageShown());
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->stepChart()->lastDrawnStep() >= 10, 10000);
        QVERIFY2(w.view()->bannerText().startsWith(QStringLiteral("Running")), qPrintable(w.view()->bannerText()));
        writer->kill();
        writer->waitForFinished(5000);
    }
};

QTEST_MAIN(TestFollow)
#include "tst_follow.moc"
