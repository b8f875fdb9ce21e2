// Two runs side by side: the comparison a user makes between a laptop and a server.
#include "core/results/resultsloader.h"
#include "ui/mainwindow.h"
#include "ui/results/diffdialog.h"
#include "ui/results/diffmodel.h"

#include "testfiles.h"
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QStandardPaths>

#include <QtTest>

using namespace synctax;

namespace {

const char* gpuResults = SYNCTAX_TEST_DATA "/results/h200/seed-app.json";

ExperimentResult loadGpuResults()
{
    auto loaded = loadResultsFile(gpuResults);
    if (!loaded.result)
        qFatal("cannot load %s", gpuResults);
    return *loaded.result;
}

int rowsWithoutOverlap(const DiffModel& model)
{
    int n = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.data(model.index(r, DiffModel::Overlap)).toString() == QStringLiteral("no"))
            ++n;
    return n;
}

} // namespace

class TestDiff : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void aRunAgainstItselfAgreesEverywhere()
    {
        const ExperimentResult a = loadGpuResults();
        DiffDialog dialog(a, QStringLiteral("a.json"), a, QStringLiteral("a.json"));
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(dialog.model()->rowCount(), int(a.cells.size()));
        QCOMPARE(rowsWithoutOverlap(*dialog.model()), 0);
        QVERIFY(dialog.environmentText().contains(QStringLiteral("Same environment")));
        QVERIFY2(dialog.speedText().contains(QStringLiteral("same speed")), qPrintable(dialog.speedText()));
        for (int r = 0; r < dialog.model()->rowCount(); ++r) {
            const QString d = dialog.model()->data(dialog.model()->index(r, DiffModel::Difference)).toString();
            QVERIFY(d.isEmpty() || d == QStringLiteral("+0.0") || d == QStringLiteral("-0.0"));
        }
    }

    void aShiftedCellAndAnotherGpuAreShown()
    {
        const ExperimentResult a = loadGpuResults();
        ExperimentResult b = a;
        b.environment.deviceName = "NVIDIA A100-SXM4-80GB";
        int shifted = -1;
        for (size_t i = 0; i < b.cells.size(); ++i) {
            if (b.cells[i].model == "resnet50" && b.cells[i].style == "item") {
                Interval& o = *b.cells[i].overheadPct;
                o = { o.estimate + 10, o.low + 10, o.high + 10 };
                shifted = int(i);
            }
        }
        QVERIFY(shifted >= 0);
        DiffDialog dialog(a, QStringLiteral("h200.json"), b, QStringLiteral("a100.json"));
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(rowsWithoutOverlap(*dialog.model()), 1);
        QVERIFY2(dialog.environmentText().contains(QStringLiteral("A100")), qPrintable(dialog.environmentText()));
        QVERIFY2(dialog.speedText().contains(QStringLiteral("same speed")), qPrintable(dialog.speedText()));
        bool found = false;
        for (int r = 0; r < dialog.model()->rowCount(); ++r) {
            if (dialog.model()->data(dialog.model()->index(r, DiffModel::Overlap)).toString() != QStringLiteral("no"))
                continue;
            QCOMPARE(dialog.model()->data(dialog.model()->index(r, DiffModel::Model)).toString(),
                QStringLiteral("resnet50"));
            QCOMPARE(dialog.model()->data(dialog.model()->index(r, DiffModel::Difference)).toString(),
                QStringLiteral("+10.0"));
            QVERIFY(dialog.model()->data(dialog.model()->index(r, DiffModel::Model), Qt::BackgroundRole).isValid());
            found = true;
        }
        QVERIFY(found);
    }

    void aBaselineThatRanAtAnotherSpeedIsExplained()
    {
        const ExperimentResult a = loadGpuResults();
        ExperimentResult b = a;
        for (CellResult& c : b.cells) {
            if (c.model == "small_resnet" && c.style == "none")
                c.stepMs.mean *= 0.9;
        }
        DiffDialog dialog(a, QStringLiteral("a.json"), b, QStringLiteral("b.json"));
        const QString text = dialog.speedText();
        QVERIFY2(text.contains(QStringLiteral("small_resnet/eager: baseline")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("another speed")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("tiny_mlp")), qPrintable(text));
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("speed")));
    }

    void theWindowComparesWhatItShowsWithAFile()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        QVERIFY(w.openResults(QString::fromLatin1(gpuResults)));
        DiffDialog* dialog = w.compareWith(QString::fromLatin1(gpuResults));
        QVERIFY(dialog);
        QCOMPARE(rowsWithoutOverlap(*dialog->model()), 0);
        QString error;
        QVERIFY(!w.compareWith(QStringLiteral(SYNCTAX_TEST_DATA "/bad-results/bad-config.json"), &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_MAIN(TestDiff)
#include "tst_diff.moc"
