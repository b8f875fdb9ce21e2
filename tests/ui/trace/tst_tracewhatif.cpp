// The Trace view's what-if panel over real traces (tests/data/traces/torch-2.11-h200/) loaded by
// the production load: its rows are whatIf's at the slider's host work, the slider and its spin box
// follow each other in 0.5 ms steps, several files are picked in a combo box, the export writes the
// rows shown, and Ctrl+Shift+H puts the keyboard on the slider. The expected rows are the model's
// own (whatIf called here on the loop the load built): what is checked is the panel's plumbing.
#include "core/trace/tracesummary.h"
#include "ui/mainwindow.h"
#include "ui/trace/traceloader.h"
#include "ui/trace/traceview.h"
#include "ui/trace/tracewhatifmodel.h"
#include "ui/trace/tracewhatifpanel.h"

#include "testfiles.h"
#include "tracefixtures.h"

#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFont>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace synctax;

namespace {

const QString h200 = QStringLiteral(SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/");

TraceFilesPtr load(const QStringList& names)
{
    TraceLoader loader;
    QSignalSpy available(&loader, &TraceLoader::traceAvailable);
    QStringList paths;
    for (const QString& n : names)
        paths << h200 + n;
    loader.load(paths);
    if (!available.wait(120000) || available.isEmpty())
        return nullptr;
    return available.first().at(1).value<TraceFilesPtr>();
}

// The model's rows, cell by cell, against whatIf's: exact, as the panel shows what it was given.
bool rowsEqual(const TraceWhatIfModel& model, const WhatIf& expected, QString* why)
{
    if (model.rowCount() != int(expected.rows.size())) {
        *why = QStringLiteral("%1 rows, expected %2").arg(model.rowCount()).arg(expected.rows.size());
        return false;
    }
    for (int i = 0; i < model.rowCount(); ++i) {
        const WhatIfRow& e = expected.rows[size_t(i)];
        const auto raw = [&](int column) { return model.index(i, column).data(TraceRawRole); };
        if (raw(TraceWhatIfModel::Style).toString().toStdString() != e.style
            || raw(TraceWhatIfModel::StepMs).toDouble() != e.stepMs
            || raw(TraceWhatIfModel::TaxPct).toDouble() != e.taxPct
            || raw(TraceWhatIfModel::Every).toLongLong() != e.n) {
            *why = QStringLiteral("row %1 (%2): %3 ms %4%, expected %5 ms %6%")
                       .arg(i)
                       .arg(QString::fromStdString(e.style))
                       .arg(raw(TraceWhatIfModel::StepMs).toDouble())
                       .arg(raw(TraceWhatIfModel::TaxPct).toDouble())
                       .arg(e.stepMs)
                       .arg(e.taxPct);
            return false;
        }
    }
    return true;
}

#define COMPARE_ROWS(model, expected)                                                                                  \
    do {                                                                                                               \
        QString why;                                                                                                   \
        QVERIFY2(rowsEqual(model, expected, &why), qPrintable(why));                                                   \
    } while (false)

} // namespace

class TestTraceWhatIf : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void rowsFollowTheSlider()
    {
        const TraceFilesPtr files = load({ QStringLiteral("resnet50-none.pt.trace.json.gz") });
        QVERIFY(files && files->size() == 1);
        // The load's worker built the loop; the window only replays it.
        const std::shared_ptr<const ImportedLoop> loop = files->front().loop;
        QVERIFY(loop);
        QVERIFY2(loop->available, loop->reason.c_str());

        TraceView view;
        view.resize(1600, 1000);
        view.setFiles(files);
        TraceWhatIfPanel* panel = view.whatIfPanel();
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!panel->fileBox()->isVisibleTo(panel)); // one file: nothing to pick
        QCOMPARE(panel->hostWorkMs(), 0.0);
        COMPARE_ROWS(*panel->model(), whatIf(*loop, 0));

        // The loop as recorded is the first row, shown bold on a tint; the styles are not.
        const QModelIndex recorded = panel->model()->index(0, TraceWhatIfModel::Style);
        QCOMPARE(recorded.data().toString(), QStringLiteral("as recorded"));
        QVERIFY(recorded.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(recorded.data(Qt::BackgroundRole).isValid());
        QVERIFY(!panel->model()->index(1, TraceWhatIfModel::Style).data(Qt::BackgroundRole).isValid());
        QCOMPARE(panel->model()->index(1, TraceWhatIfModel::Style).data().toString(), QStringLiteral("none"));

        // 20 steps of 0.5 ms: 10 ms of host work (under this GPU-bound loop's GPU time, so its steps
        // need not slow; 40 ms more does).
        QSignalSpy changed(panel, &TraceWhatIfPanel::whatIfChanged);
        panel->slider()->setValue(20);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel->hostWorkMs(), 10.0);
        QCOMPARE(panel->spinBox()->value(), 10.0);
        QCOMPARE(panel->hostWorkLabel(), QStringLiteral("if your data loading took 10.0 ms more per step"));
        const WhatIf at10 = whatIf(*loop, 10000);
        COMPARE_ROWS(*panel->model(), at10);
        QCOMPARE(panel->whatIf().hostWorkUs, 10000.0);
        QVERIFY(at10.rows[1].stepMs >= whatIf(*loop, 0).rows[1].stepMs - 1e-6);
        QVERIFY(whatIf(*loop, 40000).rows[1].stepMs > whatIf(*loop, 0).rows[1].stepMs + 5);

        // The keyboard moves it a step; the spin box takes a value to the nearest step.
        QTest::keyClick(panel->slider(), Qt::Key_Right);
        QCOMPARE(panel->hostWorkMs(), 10.5);
        COMPARE_ROWS(*panel->model(), whatIf(*loop, 10500));
        panel->spinBox()->setValue(12.3);
        QCOMPARE(panel->slider()->value(), 25);
        QCOMPARE(panel->spinBox()->value(), 12.5);
        COMPARE_ROWS(*panel->model(), whatIf(*loop, 12500));
        panel->setHostWorkMs(80);
        QCOMPARE(panel->hostWorkMs(), 50.0);
        COMPARE_ROWS(*panel->model(), whatIf(*loop, 50000));
        QVERIFY2(panel->note().contains(QString::fromStdString(loop->calibration.how)), qPrintable(panel->note()));
        QVERIFY(panel->note().contains(QStringLiteral("Uncertainty: ")));

        QVERIFY(keepScreenshot(view.grab(), QStringLiteral("trace-whatif")));
    }

    void phasesTimedUnprofiledCalibrateTheLoop()
    {
        // A loop of the phases set, with the phase times measured beside it (phases/measurements).
        TraceLoader loader;
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        loader.load({ h200 + QStringLiteral("phases/resnet50-none.pt.trace.json.gz") });
        QVERIFY(available.wait(120000) && !available.isEmpty());
        const TraceFilesPtr files = available.first().at(1).value<TraceFilesPtr>();
        QVERIFY(files && files->size() == 1);
        const std::shared_ptr<const ImportedLoop> loop = files->front().loop;
        QVERIFY(loop && loop->available);

        TraceView view;
        view.resize(1600, 1000);
        view.setFiles(files);
        TraceWhatIfPanel* panel = view.whatIfPanel();
        const WhatIf fromTrace = whatIf(*loop, 0);
        COMPARE_ROWS(*panel->model(), fromTrace);

        // Alt+A puts the keyboard on the field; typed and taken at Enter, the rows are those of the
        // loop calibrated to the phases.
        QSignalSpy changed(panel, &TraceWhatIfPanel::whatIfChanged);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.activateWindow();
        QTest::keyClick(&view, Qt::Key_A, Qt::AltModifier);
        QTRY_COMPARE(QApplication::focusWidget(), panel->phasesEdit());
        QTest::keyClicks(panel->phasesEdit(), QStringLiteral("11.86, 13.72 1.46"));
        QTest::keyClick(panel->phasesEdit(), Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QVERIFY(panel->phasesMs());
        QCOMPARE((*panel->phasesMs())[1], 13.72);
        ImportedLoopOptions options;
        options.phasesMs = std::array<double, 3> { 11.86, 13.72, 1.46 };
        const ImportedLoop phased = recalibrated(*loop, options);
        COMPARE_ROWS(*panel->model(), whatIf(phased, 0));
        QVERIFY(panel->whatIf().rows[2].taxPct != fromTrace.rows[2].taxPct); // item: another answer
        QVERIFY2(panel->note().contains(QStringLiteral("mapped onto the unprofiled 11.9, 13.7, 1.5 ms")),
            qPrintable(panel->note()));
        QVERIFY(panel->phasesError().isEmpty());
        // The slider replays the calibrated loop.
        panel->setHostWorkMs(5);
        COMPARE_ROWS(*panel->model(), whatIf(phased, 5000));
        QVERIFY(keepScreenshot(view.grab(), QStringLiteral("trace-whatif-phases")));

        // Not three numbers in range: refused with the reason, the rows stay.
        for (const auto& [text, reason] :
            { std::pair { QStringLiteral("11.86, 13.72"), QStringLiteral("expected three numbers F,B,O (ms)") },
                std::pair { QStringLiteral("11.86, x, 1"), QStringLiteral("expected a number, found 'x'") },
                std::pair { QStringLiteral("11.86, 0, 1"), QStringLiteral("0 is out of range") } }) {
            QVERIFY(!panel->setPhasesText(text));
            QVERIFY2(panel->phasesError().contains(reason), qPrintable(panel->phasesError()));
            COMPARE_ROWS(*panel->model(), whatIf(phased, 5000));
        }
        // Several timings, `;` between: the loop replayed at each and averaged, as --phases-file does;
        // a timing refused is named by its place.
        QVERIFY(panel->slider()->hasTracking());
        QVERIFY(panel->setPhasesText(QStringLiteral("11.86, 13.72, 1.46; 15.5,13.72,1.46 ;9.0 13.0 1.4")));
        QCOMPARE(panel->phaseTimings().size(), size_t(3));
        QCOMPARE((*panel->phasesMs())[0], 11.86); // the median, phase by phase
        ImportedLoopOptions spread;
        spread.phasesSpreadMs = panel->phaseTimings();
        const ImportedLoop spreadLoop = recalibrated(*loop, spread);
        QCOMPARE(spreadLoop.spreadBase.size(), size_t(3));
        COMPARE_ROWS(*panel->model(), whatIf(spreadLoop, 5000));
        QVERIFY2(panel->note().contains(QStringLiteral("replayed at 3 of 3 phase timings")), qPrintable(panel->note()));
        QVERIFY(!panel->slider()->hasTracking()); // replayed where the slider is let go
        QVERIFY(!panel->setPhasesText(QStringLiteral("11.86, 13.72, 1.46; 15.5,x,1.46")));
        QVERIFY2(panel->phasesError().contains(QStringLiteral("timing 2: expected a number, found 'x'")),
            qPrintable(panel->phasesError()));
        COMPARE_ROWS(*panel->model(), whatIf(spreadLoop, 5000));

        // Emptied: the trace alone again.
        QVERIFY(panel->setPhasesText(QString()));
        QVERIFY(!panel->phasesMs());
        QVERIFY(panel->phasesError().isEmpty());
        COMPARE_ROWS(*panel->model(), whatIf(*loop, 5000));
        QVERIFY(panel->slider()->hasTracking());
    }

    void severalFilesArePickedInTheComboBox()
    {
        const TraceFilesPtr files = load(
            { QStringLiteral("resnet50-none.pt.trace.json.gz"), QStringLiteral("resnet50-item.pt.trace.json.gz") });
        QVERIFY(files && files->size() == 2);
        TraceView view;
        view.setFiles(files);
        TraceWhatIfPanel* panel = view.whatIfPanel();
        QVERIFY(panel->fileBox()->isVisibleTo(panel));
        QCOMPARE(panel->fileBox()->count(), 2);
        QCOMPARE(panel->fileBox()->currentText(), QStringLiteral("resnet50-none.pt.trace.json.gz"));
        panel->setHostWorkMs(5);
        COMPARE_ROWS(*panel->model(), whatIf(*(*files)[0].loop, 5000));
        panel->fileBox()->setCurrentIndex(1);
        QCOMPARE(panel->currentSource(), 1);
        QCOMPARE(panel->hostWorkMs(), 5.0);
        const WhatIf item = whatIf(*(*files)[1].loop, 5000);
        COMPARE_ROWS(*panel->model(), item);
        // resnet50-item syncs once a step: its loop as recorded is not the loop without syncs.
        QVERIFY(item.rows[0].taxPct > 0);

        // Export Trace Tables writes each file's what-if at the slider's host work.
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(view.exportTables(dir.path(), &written, &error), qPrintable(error));
        for (size_t i = 0; i < files->size(); ++i) {
            const TraceFile& f = (*files)[i];
            QFile summary(dir.filePath(QString::fromStdString(traceSummaryFileName(f.path))));
            QVERIFY(summary.open(QIODevice::ReadOnly));
            const nlohmann::json j = nlohmann::json::parse(summary.readAll().toStdString());
            QCOMPARE(j.at("whatif"), toJson(*f.loop, whatIf(*f.loop, 5000)));
            QCOMPARE(j.at("whatif").at("host_work_us").get<double>(), 5000.0);
        }
    }

    void theExportWritesTheWhatIfShownWithPhasesSet()
    {
        const TraceFilesPtr files = load({ QStringLiteral("resnet50-none.pt.trace.json.gz") });
        QVERIFY(files && files->size() == 1);
        TraceView view;
        view.setFiles(files);
        TraceWhatIfPanel* panel = view.whatIfPanel();
        panel->setHostWorkMs(5);
        const nlohmann::json traceAlone = toJson(*files->front().loop, whatIf(*files->front().loop, 5000));
        QVERIFY(panel->setPhasesText(QStringLiteral("11.86, 13.72, 1.46")));
        const WhatIf& shown = panel->whatIf();
        QVERIFY(!shown.rows.empty());
        // The Phases field changed what is shown: an export of the trace's own loop would differ.
        QVERIFY(toJson(*panel->currentLoop(), shown) != traceAlone);

        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(view.exportTables(dir.path(), &written, &error), qPrintable(error));
        QFile summary(dir.filePath(QStringLiteral("trace-summary.json")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const nlohmann::json j = nlohmann::json::parse(summary.readAll().toStdString());
        QCOMPARE(j.at("whatif"), toJson(*panel->currentLoop(), shown));
        for (size_t i = 0; i < shown.rows.size(); ++i)
            QCOMPARE(j.at("whatif").at("rows").at(i).at("tax_pct").get<double>(), shown.rows[i].taxPct);
    }

    void aProbeFolderOpensCalibratedWithItsMeasurementBeside()
    {
        TraceLoader loader;
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        loader.load({ QStringLiteral(SYNCTAX_TEST_DATA "/probe/tiny_mlp-h0-h200") });
        QVERIFY(available.wait(120000));
        const TraceFilesPtr files = available.first().at(1).value<TraceFilesPtr>();
        QVERIFY(files && files->size() == 1);
        const TraceFile& f = files->front();
        QVERIFY(f.probe && f.loop);
        QVERIFY(f.loop->calibrated);
        QCOMPARE(f.loop->options.phasesSpreadMs.size(), f.probe->phasesMs.size());
        TraceView view;
        view.setFiles(files);
        const QString note = view.whatIfPanel()->note();
        QVERIFY2(note.contains(QStringLiteral("item (measured)")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("item (what-if above)")), qPrintable(note));
    }

    void aCpuProbeFolderKeepsItsMeasurementWhereNothingReplays()
    {
        // A finished run folder whose capture holds no GPU work (a run on the CPU: a synthetic one
        // here): no what-if, but the A/B, the capture check and the probe's time it measured, as
        // `synctax-run trace DIR` prints them.
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("run"));
        QProcess writer;
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start(QStringLiteral("python3"),
            { QStringLiteral(SYNCTAX_SOURCE_DIR "/scripts/replay-probe-run.py"), QStringLiteral("--synthetic-steps"),
                QStringLiteral("3000"), QStringLiteral("--steps-per-s"), QStringLiteral("1000000"), dir });
        QVERIFY(writer.waitForFinished(60000) && writer.exitCode() == 0);
        TraceLoader loader;
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        loader.load({ dir });
        QVERIFY(available.wait(60000));
        const TraceFilesPtr files = available.first().at(1).value<TraceFilesPtr>();
        QVERIFY(files && files->size() == 1 && files->front().probe);
        TraceView view;
        view.setFiles(files);
        const QString note = view.whatIfPanel()->note();
        QVERIFY2(note.startsWith(QStringLiteral("Not available: ")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("item (measured)")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("A/A control")), qPrintable(note));
    }

    void aLoopThatCannotBeReplayedSaysWhy()
    {
        // The hand-built fixture's launches have no correlation: nothing to replay. Loaded through
        // the loader, which builds the loop a fake load leaves out; set by hand, there is none.
        TraceLoader loader;
        loader.setLoadFunction(tracefixtures::fakeLoad());
        QSignalSpy available(&loader, &TraceLoader::traceAvailable);
        loader.load({ QStringLiteral("/t/rank0.pt.trace.json") });
        QVERIFY(available.wait(30000));
        const TraceFilesPtr files = available.first().at(1).value<TraceFilesPtr>();
        QVERIFY(files->front().loop);
        TraceView view;
        view.setFiles(files);
        TraceWhatIfPanel* panel = view.whatIfPanel();
        QCOMPARE(panel->model()->rowCount(), 0);
        QVERIFY(!panel->slider()->isEnabled());
        // Nothing for phases to calibrate either.
        QVERIFY(!panel->phasesEdit()->isEnabled());
        QCOMPARE(panel->note(),
            QStringLiteral("Not available: %1.").arg(QString::fromStdString(files->front().loop->reason)));
        // Without the table, the controls and the note stay together at the top of a tall pane, not
        // spread over it.
        panel->setParent(nullptr);
        panel->resize(460, 800);
        panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel));
        const int spread = panel->phasesEdit()->geometry().bottom() - panel->slider()->geometry().top();
        QVERIFY2(spread < 4 * panel->phasesEdit()->height(), qPrintable(QString::number(spread)));
        const QWidget* note = panel->findChild<QWidget*>(QStringLiteral("whatIfNote"));
        QVERIFY(note);
        QVERIFY2(note->geometry().top() - panel->phasesEdit()->geometry().bottom() < 4 * panel->phasesEdit()->height(),
            qPrintable(QString::number(note->geometry().top())));
        panel->setParent(&view);

        view.setFiles(tracefixtures::twoRanks());
        QCOMPARE(view.whatIfPanel()->note(), QStringLiteral("Not available: no replay prepared."));
    }

    void ctrlShiftHFocusesTheSlider()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy available(w.traceLoader(), &TraceLoader::traceAvailable);
        w.openTraces({ h200 + QStringLiteral("tiny_mlp-item.pt.trace.json.gz") });
        QVERIFY(available.wait(120000));
        QSlider* slider = w.traceView()->whatIfPanel()->slider();
        QVERIFY(!slider->hasFocus());
        QTest::keySequence(&w, QKeySequence(QStringLiteral("Ctrl+Shift+H")));
        QTRY_VERIFY(slider->hasFocus());
        QVERIFY(w.tracePageShown());
    }
};

QTEST_MAIN(TestTraceWhatIf)
#include "tst_tracewhatif.moc"
