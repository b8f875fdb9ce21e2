// The Trace view's parts over a hand-built two-rank trace (tracefixtures.h): its models, the
// merge of a watched rank's files, the explanation, the timeline's sync marks and the CSV export.
#include "core/trace/traceexplanation.h"
#include "ui/charts/tracequeuechart.h"
#include "ui/trace/tablecsv.h"
#include "ui/trace/traceexplanation.h"
#include "ui/trace/tracemerge.h"
#include "ui/trace/tracesitemodel.h"
#include "ui/trace/tracestepmodel.h"
#include "ui/trace/tracetimeline.h"
#include "ui/trace/traceview.h"

#include "legendcheck.h"
#include "testfiles.h"
#include "tracefixtures.h"

#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

using namespace synctax;
using namespace tracefixtures;

class TestTraceView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void stepModelPassesTheModelTesterAndShowsTheSteps()
    {
        TraceStepModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const TraceFile f = rankFile(0);
        model.setSteps(f.report.steps);
        model.appendSteps(f.report.steps);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.columnCount(), int(TraceStepModel::ColumnCount));
        QCOMPARE(model.headerData(TraceStepModel::TaxPct, Qt::Horizontal).toString(), QStringLiteral("tax %"));
        // Step 2 of the fixture: two syncs, 1.3 ms of bubble in 10 ms.
        QCOMPARE(model.index(1, TraceStepModel::Step).data().toString(), QStringLiteral("#2"));
        QCOMPARE(model.index(1, TraceStepModel::Syncs).data().toInt(), 2);
        QCOMPARE(model.index(1, TraceStepModel::TaxPct).data().toString(), QStringLiteral("13.0"));
        QCOMPARE(model.index(1, TraceStepModel::BubbleMs).data(TraceRawRole).toDouble(), 1.3);
        model.setSteps({});
        QCOMPARE(model.rowCount(), 0);
    }

    void siteModelPassesTheModelTesterAndSaysWhenThereIsNoStack()
    {
        TraceSiteModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSites(rankFile(0).report.sites);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, TraceSiteModel::Op).data().toString(), QStringLiteral("aten::item"));
        QCOMPARE(model.index(0, TraceSiteModel::Python).data().toString(), QString::fromLatin1(itemPython));
        QCOMPARE(model.index(0, TraceSiteModel::BubbleMs).data().toString(), QStringLiteral("0.80"));
        QCOMPARE(model.index(1, TraceSiteModel::Python).data().toString(), QStringLiteral("(no stack)"));
        QVERIFY(model.index(1, TraceSiteModel::Python).data(Qt::ToolTipRole).toString().contains("with_stack"));
    }

    void mergeWeighsEachFilesSitesByItsSteps()
    {
        // Two files of three steps; the second's item sync waits 2 ms per step instead of 4:
        // (4 * 3 + 2 * 3) / 6 = 3 ms per step, and 6 item syncs in 6 steps.
        const TraceFile a = rankFile(0);
        TraceFile b = rankFile(0);
        b.report.sites[0].waitMs = 2.0;
        const TraceReport merged = mergeTraceReports({ &a.report, &b.report });
        QCOMPARE(merged.steps.size(), size_t(6));
        QCOMPARE(merged.syncs.size(), size_t(8));
        QCOMPARE(merged.sites.size(), size_t(2));
        QCOMPARE(merged.sites[0].op, std::string("aten::item"));
        QCOMPARE(merged.sites[0].count, 6);
        QCOMPARE(merged.sites[0].perStep, 1.0);
        QCOMPARE(merged.sites[0].waitMs, 3.0);
        QCOMPARE(
            merged.syncs[4].step, 3); // the second file's first sync, in its first step: after the first file's three
        QCOMPARE(merged.regime.label, std::string("gpu_bound"));
        QCOMPARE(merged.meanStepMs, 10.0);
    }

    void explanationSpeaksAboutThisLoop()
    {
        // The app shows explainTrace's words (the ones synctax-run trace prints), escaped, one <p> each.
        const TraceReport report = rankFile(0).report;
        const QString text = traceExplanation(report);
        QVERIFY2(text.contains("GPU-bound"), qPrintable(text));
        QVERIFY(text.contains("busy 7.00 ms")); // G of the fixture
        QVERIFY(text.contains("aten::item at " + QString::fromLatin1(itemPython).toHtmlEscaped()));
        QVERIFY(text.contains("idles 0.800 ms per step, 8.0% of the step"));
        QVERIFY(text.contains("<p><b>What to try:</b> Keep the value")); // the remedy for .item()
        QVERIFY(text.contains("1 other site costs less"));
        for (const std::string& p : explainTrace(report).paragraphs())
            QVERIFY2(text.contains(QString::fromStdString(p).toHtmlEscaped().replace(
                         QStringLiteral("What to try:"), QStringLiteral("<b>What to try:</b>"))),
                p.c_str());

        TraceReport quiet = report;
        quiet.sites.clear();
        quiet.syncs.clear();
        quiet.regime.syncsPerStep = 0;
        quiet.regime.label = "dispatch_bound";
        quiet.regime.sentence.clear();
        quiet.notes = { "no ProfilerStep#N annotations" };
        const QString none = traceExplanation(quiet);
        QVERIFY2(none.contains("No sync inside the steps"), qPrintable(none));
        QVERIFY(none.contains("Dispatch-bound"));
        QVERIFY(none.contains("<p><i>no ProfilerStep#N annotations</i></p>"));
        QVERIFY(!none.contains("What to try"));
    }

    void selectingASiteHighlightsItsSyncsInTheTimeline()
    {
        TraceView view;
        view.resize(1400, 900);
        view.setFiles(twoRanks());
        QCOMPARE(view.rankCount(), 2);
        TraceTimeline* timeline = view.timeline();
        QCOMPARE(timeline->rowCount(), 4); // per rank, its python thread and its stream
        QCOMPARE(timeline->highlightedSyncCount(), 0);
        view.selectSite(0, 0); // aten::item on rank 0: one per step
        QCOMPARE(timeline->highlightedSyncCount(), 3);
        view.selectSite(1, 1); // aten::nonzero on rank 1: step 2 only
        QCOMPARE(timeline->highlightedSyncCount(), 1);
        QCOMPARE(view.currentRank(), 1);
        view.selectSite(1, -1);
        QCOMPARE(timeline->highlightedSyncCount(), 0);
    }

    void timelineZoomsAroundTheAnchorAndFitsAll()
    {
        TraceTimeline timeline;
        timeline.resize(1000, 200);
        const TraceFile f = rankFile(0);
        timeline.setRanks({ TimelineRank { QStringLiteral("rank 0"), { &f } } });
        const std::int64_t start = timeline.viewStartNs();
        const std::int64_t end = timeline.viewEndNs();
        QVERIFY(start <= baseNs && end >= baseNs + 30 * ms);
        const std::int64_t anchor = baseNs + 10 * ms;
        timeline.zoom(2.0, anchor);
        QVERIFY(qAbs((timeline.viewEndNs() - timeline.viewStartNs()) - (end - start) / 2) <= 1);
        QVERIFY(timeline.viewStartNs() < anchor && timeline.viewEndNs() > anchor);
        QTest::keyClick(&timeline, Qt::Key_F);
        QCOMPARE(timeline.viewStartNs(), start);
        QCOMPARE(timeline.viewEndNs(), end);
    }

    void queueChartDrawsEachStreamDownsampled()
    {
        TraceQueueChart chart;
        chart.resize(400, 300);
        TraceReport report = rankFile(0).report;
        report.queues[0].points.clear();
        for (int i = 0; i < 100000; ++i)
            report.queues[0].points.push_back({ baseNs + i * 1000, i % 7 });
        chart.setReport(&report);
        QCOMPARE(chart.streamSeriesCount(), 1);
        int most = 0;
        for (QAbstractSeries* s : chart.chart()->series())
            most = std::max(most, int(static_cast<QLineSeries*>(s)->count()));
        QVERIFY(most > 0);
        // Two points per pixel of the plot at most, from 200000 corners of the stepped queue.
        const int plotWidth = std::max(1, int(chart.chart()->plotArea().width()));
        QVERIFY2(most <= 2 * std::max(plotWidth, chart.viewport()->width()), qPrintable(QString::number(most)));
        // Ten streams (a DDP rank's buckets): the legend names the lag and the three deepest queues.
        report.queues.resize(10, report.queues[0]);
        for (size_t i = 0; i < report.queues.size(); ++i) {
            report.queues[i].stream = std::int64_t(i);
            report.queues[i].max = int(i);
        }
        chart.setReport(&report);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QStringList named = chart.legendLabels();
        QCOMPARE(named.size(), 4);
        for (const char* deepest : { "stream 9 ", "stream 8 ", "stream 7 " })
            QVERIFY2(named.join(',').contains(deepest), qPrintable(named.join(',')));
        // Whole, each its own, in the side panel's width: not "lag: launch ahead of its GP…".
        QCoreApplication::processEvents();
        const QStringList problems = legendProblems(chart);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
        QVERIFY(named.contains(QStringLiteral("lag: launch ahead of its GPU work (ms)")));
        chart.setReport(nullptr);
        QCOMPARE(chart.streamSeriesCount(), 0);
        QVERIFY(!chart.placeholder().isEmpty());
    }

    // Both say "time in the trace": the queue chart's axis starts where the timeline's ruler does
    // and spans what it spans, though the queue changes only in the middle of the trace.
    void queueChartReadsTimeFromTheTimelinesZero()
    {
        auto files = std::make_shared<TraceFiles>();
        TraceFile f = rankFile(0);
        f.report.queues[0].points.clear();
        for (int i = 10; i <= 20; ++i)
            f.report.queues[0].points.push_back({ baseNs + i * ms, i % 3 });
        f.report.lag = { { baseNs + 10 * ms, 0.5 }, { baseNs + 20 * ms, 1.0 } };
        files->push_back(std::move(f));
        TraceView view;
        view.resize(1600, 1000);
        view.setFiles(files);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.timeline()->firstNs(), baseNs);
        QCOMPARE(view.timeline()->lastNs(), baseNs + 30 * ms);
        TraceQueueChart* chart = view.queueChart();
        auto* axis = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).first());
        QVERIFY(axis);
        QCOMPARE(axis->min(), 0.0);
        QCOMPARE(axis->max(), 30.0);
        for (QAbstractSeries* s : chart->chart()->series()) {
            const auto* line = static_cast<QLineSeries*>(s);
            QVERIFY2(line->count() > 0, qPrintable(line->name()));
            QCOMPARE(line->at(0).x(), 10.0);
        }
    }

    void timelineScrollsItsLanesAndIsNoTallerThanThem()
    {
        // twoRanks: the ruler (22 px), two rank headers (18) and four lanes (16), + 4 = 126 px.
        TraceTimeline timeline;
        std::vector<TimelineRank> ranks;
        const TraceFilesPtr files = twoRanks();
        for (const TraceFile& f : *files)
            ranks.push_back({ QString::fromStdString(f.path), { &f } });
        timeline.setRanks(ranks);
        QCOMPARE(timeline.contentHeight(), 22 + 2 * 18 + 4 * 16 + 4);
        QCOMPARE(timeline.maximumHeight(), timeline.contentHeight());
        timeline.setMinimumHeight(60);
        timeline.resize(800, 80);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QCOMPARE(timeline.height(), 80);
        QCOMPARE(timeline.lanesScrollRange(), timeline.contentHeight() - 80);
        timeline.scrollLanesTo(1000);
        QCOMPARE(timeline.lanesScroll(), timeline.lanesScrollRange());
        QVERIFY(!timeline.grab().isNull()); // paints scrolled
        timeline.resize(800, timeline.contentHeight());
        QCOMPARE(timeline.lanesScrollRange(), 0);
    }

    void stepTableShowsShortHeadersAndCsvKeepsTheFullOnes()
    {
        TraceStepModel model;
        TraceStep s;
        s.name = "ProfilerStep#12";
        model.setSteps({ s });
        QCOMPARE(model.headerData(TraceStepModel::DispatchMs, Qt::Horizontal).toString(), QStringLiteral("D ms"));
        QVERIFY(model.headerData(TraceStepModel::DispatchMs, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("dispatch ms: D:")));
        QCOMPARE(model.index(0, TraceStepModel::Step).data().toString(), QStringLiteral("#12"));
        QCOMPARE(model.index(0, TraceStepModel::Step).data(TraceRawRole).toString(), QStringLiteral("ProfilerStep#12"));
        QVERIFY(modelToCsv(model).startsWith(QStringLiteral("step,step ms,dispatch ms,GPU busy ms,launches,")));
    }

    void exportsEachRanksTablesAsCsv()
    {
        TraceView view;
        view.setFiles(twoRanks());
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(view.exportTables(dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 6);
        // The summaries are synctax-run trace's (writeTraceSummary), named by their files as it names them.
        for (int rank : { 0, 1 }) {
            QFile summary(dir.filePath(QStringLiteral("trace-summary-rank%1.json").arg(rank)));
            QVERIFY2(summary.open(QIODevice::ReadOnly), qPrintable(summary.fileName()));
            const nlohmann::json json = nlohmann::json::parse(summary.readAll().toStdString());
            QCOMPARE(json.at("schema").get<std::string>(), std::string("synctax.trace/1"));
            QCOMPARE(json.at("steps").size(), size_t(3)); // the fixture's three steps
            QCOMPARE(json.at("sync_sites").at(0).at("op").get<std::string>(), std::string("aten::item"));
        }
        TraceView one;
        auto single = std::make_shared<TraceFiles>();
        single->push_back(rankFile(0));
        one.setFiles(single);
        QTemporaryDir alone;
        QVERIFY2(one.exportTables(alone.path(), &written, &error), qPrintable(error));
        QVERIFY(QFile::exists(alone.filePath("trace-summary.json")));
        QFile steps(dir.filePath("trace-steps-rank1.csv"));
        QVERIFY(steps.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = steps.readAll().split('\n');
        QCOMPARE(lines[0],
            QByteArray("step,step ms,dispatch ms,GPU busy ms,launches,syncs,wait ms,bubble ms,tax %,queue max,lag ms"));
        QCOMPARE(lines[2], QByteArray("ProfilerStep#2,10,1,7,10,2,5,1.3,13,9,0.4"));
        QFile sites(dir.filePath("trace-sites-rank0.csv"));
        QVERIFY(sites.open(QIODevice::ReadOnly));
        QVERIFY(sites.readAll().contains("aten::item,train.py(87): <module>,1,4,0.8,8\n"));
    }

    void exportsTwoFilesOfOneNameAsTwoSummaries()
    {
        // The same file name in two runs' folders: each summary takes its folder's name, as
        // synctax-run trace names them, and neither overwrites the other.
        auto files = std::make_shared<TraceFiles>();
        files->push_back(rankFile(0));
        files->push_back(rankFile(1));
        files->back().path = "/other/rank0.pt.trace.json";
        TraceView view;
        view.setFiles(files);
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(view.exportTables(dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 6);
        for (const char* name : { "trace-summary-traces-rank0.json", "trace-summary-other-rank0.json" })
            QVERIFY2(written.contains(dir.filePath(QString::fromLatin1(name))), qPrintable(written.join(' ')));
    }
};

QTEST_MAIN(TestTraceView)
#include "tst_traceview.moc"
