// Exports as users make them: from a results file recorded on a GPU, and from a run made in the window.
#include "core/config/configloader.h"
#include "core/config/presets.h"
#include "core/results/resultsloader.h"
#include "core/results/stepcsvwriter.h"
#include "ui/configpanel.h"
#include "ui/mainwindow.h"

#include "testfiles.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <QtTest>

using namespace synctax;

namespace {

const char* gpuResults = SYNCTAX_TEST_DATA "/results/h200/seed-app.json";

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// PNG width and height from its IHDR chunk.
QSize pngSize(const QByteArray& png)
{
    if (png.size() < 24)
        return {};
    auto be32 = [&](int at) {
        return (uchar(png[at]) << 24) | (uchar(png[at + 1]) << 16) | (uchar(png[at + 2]) << 8) | uchar(png[at + 3]);
    };
    return QSize(int(be32(16)), int(be32(20)));
}

int pdfPages(const QByteArray& pdf)
{
    return int(pdf.count("/Type /Page\n") + pdf.count("/Type /Page ") + pdf.count("/Type /Page/")
        + pdf.count("/Type/Page\n") + pdf.count("/Type/Page "));
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void exportsEveryChartReportAndDataOfAResultsFile()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(w.openResults(QString::fromLatin1(gpuResults)));
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(w.exportAll(dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 12); // 3 charts x 3 formats, the report, results.json, summary.csv

        for (const char* chart : { "overhead", "step-time", "queue" }) {
            const QString base = dir.filePath(QString::fromLatin1(chart));
            const QByteArray png = readAll(base + QStringLiteral(".png"));
            QVERIFY2(png.startsWith("\x89PNG\r\n\x1a\n"), chart);
            QCOMPARE(pngSize(png), QSize(2400, 1400));
            const QByteArray svg = readAll(base + QStringLiteral(".svg"));
            QVERIFY2(svg.startsWith("<?xml") && svg.contains("<svg"), chart);
            QXmlStreamReader xml(svg);
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(),
                qPrintable(QStringLiteral("%1.svg: %2").arg(QString::fromLatin1(chart), xml.errorString())));
            const QByteArray pdf = readAll(base + QStringLiteral(".pdf"));
            QVERIFY2(pdf.startsWith("%PDF-"), chart);
            QCOMPARE(pdfPages(pdf), 1);
        }
        // The overhead chart carries the data: a shape per bar and whisker, far more than the empty step chart.
        const QByteArray overhead = readAll(dir.filePath(QStringLiteral("overhead.svg")));
        const QByteArray empty = readAll(dir.filePath(QStringLiteral("step-time.svg")));
        QVERIFY(overhead.count("<polyline") + overhead.count("<rect")
            > 3 * (empty.count("<polyline") + empty.count("<rect")));

        const QByteArray report = readAll(dir.filePath(QStringLiteral("report.pdf")));
        QVERIFY(report.startsWith("%PDF-"));
        QCOMPARE(pdfPages(report), 1);
        QVERIFY(report.size() > 50'000); // the chart image is inside

        const QByteArray summary = readAll(dir.filePath(QStringLiteral("summary.csv")));
        QVERIFY(summary.startsWith("model,mode,style"));
        QVERIFY(summary.contains("_ms"));
        QVERIFY(summary.contains("small_resnet,eager,item,"));
        const auto reloaded = loadResultsFile(dir.filePath(QStringLiteral("results.json")).toStdString());
        QVERIFY(reloaded.result.has_value());
        QCOMPARE(reloaded.result->cells.size(), w.shownResult().cells.size());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("steps.csv")))); // results files hold no steps
    }

    void aRunMadeHereAlsoExportsItsSteps()
    {
        MainWindow w(nullptr, false);
        w.setQuiet(true);
        ExperimentConfig c = *loadConfigText(*presetText("cpu-quick"), "cpu-quick.yaml").config;
        c.models.resize(1);
        c.styles.resize(3);
        w.configPanel()->setConfig(c);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QTemporaryDir dir;
        QStringList written;
        QVERIFY(w.exportAll(dir.path(), &written));
        const QList<QByteArray> lines = readAll(dir.filePath(QStringLiteral("steps.csv"))).split('\n');
        // The runner's format: the same header, one row per step.
        QCOMPARE(lines.first() + '\n', QByteArray(stepCsvHeader()));
        QCOMPARE(qint64(lines.size() - 2), qint64(w.controller().history().totalSteps())); // header, final newline
        // The timeline of the same steps: one host slice each, on named tracks.
        const QJsonDocument trace = QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("trace.json"))));
        QVERIFY(trace.isObject());
        int hostSlices = 0;
        int names = 0;
        for (const QJsonValue& e : trace.object().value(QStringLiteral("traceEvents")).toArray()) {
            const QJsonObject event = e.toObject();
            if (event.value(QStringLiteral("ph")) == QStringLiteral("X")
                && event.value(QStringLiteral("tid")).toInt() == 1)
                ++hostSlices;
            if (event.value(QStringLiteral("ph")) == QStringLiteral("M"))
                ++names;
        }
        QCOMPARE(qint64(hostSlices), qint64(w.controller().history().totalSteps()));
        QVERIFY(names >= 3);
        // C locale: a decimal point, never a comma inside a field; the group's host work (0) and
        // batch (cpu-quick's tiny_mlp: 32) after the style.
        QVERIFY(QRegularExpression(QStringLiteral("^tiny_mlp,eager,\\w+,0,32,\\d+,\\d+,[0-9.]+,[0-9.]+,[0-9.]+,,,$"))
                    .match(QString::fromLatin1(lines[1]))
                    .hasMatch());
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
