// A run that swept host work in the app: the Tax vs host work chart's series and their points, the
// dock that shows it only for such a run, and each point's group in the table, the Model box, the
// step chart and the export. The run is tests/core/sweepresult.h (numbers picked by hand), written
// to a results file and opened as a user opens one.
#include "core/results/resultsjson.h"
#include "core/results/resultsloader.h"
#include "core/steps/runhistory.h"
#include "core/text/format.h"
#include "tests/core/sweepresult.h"
#include "ui/charts/hostworktaxchart.h"
#include "ui/charts/stepchart.h"
#include "ui/mainwindow.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/explanationpanel.h"

#include "testfiles.h"
#include <QComboBox>
#include <QDockWidget>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QValueAxis>

#include <QtTest>

using namespace synctax;

namespace {

// The hand-made run through results.json: what the app reads is what a file holds.
ExperimentResult throughFile(const ExperimentResult& r, const QTemporaryDir& dir)
{
    const std::string path = dir.filePath(QStringLiteral("results.json")).toStdString();
    writeJsonFileAtomically(path, toJson(r));
    const ResultsLoadResult loaded = loadResultsFile(path);
    return loaded.result.value_or(ExperimentResult {});
}

template <typename Series> Series* seriesNamed(ChartPanel& chart, const QString& objectName)
{
    for (QAbstractSeries* s : chart.chart()->series()) {
        if (s->objectName() == objectName)
            return qobject_cast<Series*>(s);
    }
    return nullptr;
}

int seriesStartingWith(ChartPanel& chart, const QString& prefix)
{
    int n = 0;
    for (QAbstractSeries* s : chart.chart()->series())
        n += s->objectName().startsWith(prefix) ? 1 : 0;
    return n;
}

bool inLegend(ChartPanel& chart, QAbstractSeries* series)
{
    const QList<QLegendMarker*> markers = chart.chart()->legend()->markers(series);
    return !markers.isEmpty() && markers.first()->isVisible();
}

} // namespace

class TestHostWorkTax : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void measuredPointsWithWhiskersAndAPredictedLinePerStyle()
    {
        QTemporaryDir dir;
        const ExperimentResult r = throughFile(sweepResult(true), dir);
        QVERIFY(HostWorkTaxChart::hasCurves(r));
        HostWorkTaxChart chart;
        chart.resize(900, 560);
        chart.show(); // legend markers are visible only on a shown chart
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setResult(r);
        QTest::qWait(50); // the legend lays its markers out on the event loop
        QVERIFY(chart.placeholder().isEmpty());
        QCOMPARE(chart.curves().size(), size_t(2));
        QCOMPARE(chart.curves()[0].name, QStringLiteral("item"));
        QCOMPARE(chart.curves()[1].name, QStringLiteral("progress_bar"));
        // Per style a scatter of the measurements and a line of the predictions, a whisker per
        // measured point (3 host works), and the zero line: 2 x (2 + 3) + 1.
        QCOMPARE(chart.chart()->series().size(), 11);
        QCOMPARE(seriesStartingWith(chart, QStringLiteral("measured:")), 2);
        QCOMPARE(seriesStartingWith(chart, QStringLiteral("predicted:")), 2);
        QCOMPARE(seriesStartingWith(chart, QStringLiteral("ci:")), 6);

        const std::vector<SweepSample>& samples = sweepSamples();
        auto* measured = seriesNamed<QScatterSeries>(chart, QStringLiteral("measured:item"));
        auto* predicted = seriesNamed<QLineSeries>(chart, QStringLiteral("predicted:item"));
        QVERIFY(measured && predicted);
        QCOMPARE(measured->count(), 3);
        QCOMPARE(predicted->count(), 3);
        // item is drawn half a gap (15 ms / 80 / 2) left of each host work, progress_bar as far right.
        const double dodge = 15.0 / 80.0 / 2.0;
        for (int i = 0; i < 3; ++i) {
            const double ms = double(samples[size_t(i)].hostWorkUs) / 1000.0;
            QCOMPARE(measured->at(i), QPointF(ms - dodge, samples[size_t(i)].item.estimate));
            QCOMPARE(predicted->at(i), QPointF(ms - dodge, samples[size_t(i)].itemPredicted));
        }
        auto* bar = seriesNamed<QScatterSeries>(chart, QStringLiteral("measured:progress_bar"));
        QVERIFY(bar);
        QCOMPARE(bar->at(1), QPointF(5.0 + dodge, samples[1].progressBar.estimate));
        // The whisker at 5 ms spans item's interval there.
        auto* whisker = seriesNamed<QLineSeries>(chart, QStringLiteral("ci:item:%1").arg(5.0 - dodge));
        QVERIFY(whisker);
        double low = 1e9, high = -1e9;
        for (const QPointF& p : whisker->points()) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
        QCOMPARE(low, samples[1].item.low);
        QCOMPARE(high, samples[1].item.high);
        QVERIFY(inLegend(chart, measured));
        QVERIFY(inLegend(chart, predicted));
        QVERIFY(!inLegend(chart, whisker));
        // The y axis holds every interval and prediction: the peak's top end at 13.4%.
        auto* axisY = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
        QVERIFY(axisY->max() >= 13.4);
        auto* axisX = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).first());
        QVERIFY(axisX->max() >= 15);
        QVERIFY(keepScreenshot(chart.renderImage(QSize(900, 560), 1.0), QStringLiteral("hostworktax")));
    }

    void aCpuRunHasNoPredictedLineInTheLegend()
    {
        QTemporaryDir dir;
        HostWorkTaxChart chart;
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setResult(throughFile(sweepResult(false), dir));
        QTest::qWait(50);
        auto* predicted = seriesNamed<QLineSeries>(chart, QStringLiteral("predicted:item"));
        QVERIFY(predicted);
        QCOMPARE(predicted->count(), 0);
        QVERIFY(!inLegend(chart, predicted));
        QCOMPARE(seriesNamed<QScatterSeries>(chart, QStringLiteral("measured:item"))->count(), 3);
    }

    void aRunWithoutASweepSaysSo()
    {
        ExperimentResult r = sweepResult(true);
        r.config.sweep.reset();
        QVERIFY(!HostWorkTaxChart::hasCurves(r));
        HostWorkTaxChart chart;
        chart.setResult(r);
        QVERIFY(chart.curves().empty());
        QVERIFY(chart.placeholder().contains(QStringLiteral("swept no host work")));
    }

    void theWindowShowsEachPointAsAGroupAndTheChartOnlyForASweep()
    {
        QTemporaryDir dir;
        writeJsonFileAtomically(dir.filePath(QStringLiteral("swept.json")).toStdString(), toJson(sweepResult(true)));
        ExperimentResult plain = sweepResult(true);
        plain.config.sweep.reset();
        plain.cells.resize(4); // the 0 ms group alone: a run without a sweep
        plain.groups.resize(1);
        plain.roundOrders.resize(1);
        writeJsonFileAtomically(dir.filePath(QStringLiteral("plain.json")).toStdString(), toJson(plain));

        MainWindow w(nullptr, false);
        w.setQuiet(true);
        w.show();
        QVERIFY(w.hostWorkTaxDock()->isHidden());
        QVERIFY(w.openResults(dir.filePath(QStringLiteral("swept.json"))));
        QVERIFY(!w.hostWorkTaxDock()->isHidden());
        QCOMPARE(w.hostWorkTaxChart()->curves().size(), size_t(2));

        // One column and one Model-box entry per host work, named by it.
        const ComparisonModel& model = *w.comparisonModel();
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("tiny_mlp h=0 ms"));
        QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("tiny_mlp h=15 ms"));
        QCOMPARE(model.data(model.index(2, 2)).toString().contains(QStringLiteral("+12.0% [+10.5, +13.4]")), true);
        auto* box = w.findChild<QComboBox*>(QStringLiteral("groupBox"));
        QCOMPARE(box->count(), 3);
        QCOMPARE(box->itemText(1), QStringLiteral("tiny_mlp h=5 ms"));
        box->setCurrentIndex(2);
        QCOMPARE(w.explanationPanel()->titleText(), QStringLiteral("tiny_mlp · eager h=15 ms"));
        QCOMPARE(w.stepChart()->group().hostWorkUs, 15000);

        // The export adds the chart and its tables.
        QTemporaryDir out;
        QStringList written;
        QVERIFY(w.exportAll(out.path(), &written));
        QVERIFY(written.contains(out.filePath(QStringLiteral("tax-vs-host-work.png"))));
        QFile tables(out.filePath(QStringLiteral("tax-vs-host-work.txt")));
        QVERIFY(tables.open(QIODevice::ReadOnly));
        const QByteArray text = tables.readAll();
        QVERIFY2(text.startsWith("tax against host work: tiny_mlp/eager/item\n"), text.constData());
        QVERIFY(text.contains("     5 ms | +12.0% [+10.5, +13.4] | +11.0%\n"));

        QVERIFY(w.openResults(dir.filePath(QStringLiteral("plain.json"))));
        QVERIFY(w.hostWorkTaxDock()->isHidden());
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("tiny_mlp"));
        QCOMPARE(box->itemText(0), QStringLiteral("tiny_mlp"));
    }

    void theStepChartDrawsOnlyTheCellsOfItsPoint()
    {
        // Two points of one model and mode: none and item at 0 ms, then at 5 ms.
        RunHistory history;
        history.reset({ cellPlan(0, { { "tiny_mlp", "eager", 0, 4 }, "none" }),
                          cellPlan(1, { { "tiny_mlp", "eager", 0, 4 }, "item" }),
                          cellPlan(2, { { "tiny_mlp", "eager", 5000, 4 }, "none" }) },
            7);
        StepChart chart;
        chart.resize(900, 500);
        chart.setHistory(&history);
        chart.setGroup(GroupKey { "tiny_mlp", "eager", 5000, 4 }, QStringLiteral("tiny_mlp h=5 ms"));
        chart.refresh();
        QCOMPARE(chart.chart()->title(), QStringLiteral("Step time — tiny_mlp h=5 ms"));
        QCOMPARE(chart.chart()->series().size(), 1);
        chart.setGroup(GroupKey { "tiny_mlp", "eager", 0, 4 }, QStringLiteral("tiny_mlp h=0 ms"));
        chart.refresh();
        QCOMPARE(chart.chart()->series().size(), 2);
    }
};

QTEST_MAIN(TestHostWorkTax)
#include "tst_hostworktax.moc"
