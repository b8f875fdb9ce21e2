#include "core/queuemodel/sequencetax.h"
#include "core/queuemodel/taxestimate.h"
#include "core/results/resultsloader.h"
#include "core/trace/kinetoreader.h"
#include "core/trace/traceanalysis.h"
#include "core/trace/tracewhatif.h"
#include "ui/charts/taxcurvechart.h"
#include "ui/teach/pipelinewidget.h"
#include "ui/teach/regimeheatmap.h"
#include "ui/teach/replaysweeps.h"
#include "ui/teach/teachview.h"
#include "ui/trace/traceloader.h"

#include "testfiles.h"
#include <QAction>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>

#include <QtTest>
#include <cmath>

using namespace synctax;

class TestTeach : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void presetsSetSlidersAndHeadline();
    void presetsLandInTheirRegimes();
    void noSyncHasNoTax();
    void sliderMovesTheModel();
    void pipelineAnimatesOnlyWhileShown();
    void pipelineShowsTheSyncWaits();
    void heatmapPeaksOnTheBalancedDiagonal();
    void taxCurvePeaksWhereHostAndGpuMatch();
    void rendersTheWholeView();
    void replaysALoadedLaunchSequence();
    void replayChartsArriveFromTheWorker();
    void aFileWithoutASequenceLeavesTheSliders();
    void loadsTheCapturedStepOfARunsResults();
};

namespace {

double headlineTax(const QString& headline)
{
    const QRegularExpressionMatch match = QRegularExpression(QStringLiteral("costs ([+-]?[0-9.]+)%")).match(headline);
    return match.hasMatch() ? match.captured(1).toDouble() : std::nan("");
}

} // namespace

void TestTeach::presetsSetSlidersAndHeadline()
{
    TeachView view;
    view.applyPreset(TeachView::Preset::ResNet50);
    const QueueModel m = view.model();
    QCOMPARE(m.dMs, 2.9);
    QCOMPARE(m.gMs, 33.0);
    QCOMPARE(m.k, int64_t(1265));
    QCOMPARE(m.queueCapacity, int64_t(1021));
    QCOMPARE(view.syncEveryN(), int64_t(1));
    auto* gSlider = view.findChild<QSlider*>(QStringLiteral("slider_G"));
    QVERIFY(gSlider);
    // G = 33 ms on the log scale 0.05…100: most of the way right.
    QVERIFY2(
        gSlider->value() > 800 && gSlider->value() < gSlider->maximum(), qPrintable(QString::number(gSlider->value())));
    QVERIFY(!std::isnan(headlineTax(view.headline())));
    QVERIFY(std::abs(headlineTax(view.headline()) - view.taxPct()) < 0.051);
    QCOMPARE(view.regime(), QStringLiteral("gpu_bound"));
    qInfo("ResNet50: %s", qPrintable(view.headline()));
}

void TestTeach::presetsLandInTheirRegimes()
{
    TeachView view;
    view.applyPreset(TeachView::Preset::TinyMlp);
    QCOMPARE(view.regime(), QStringLiteral("dispatch_bound"));
    const double tiny = view.taxPct();
    QVERIFY2(tiny >= 0 && tiny < 10, qPrintable(QString::number(tiny)));
    qInfo("tiny MLP: %s", qPrintable(view.headline()));

    view.applyPreset(TeachView::Preset::SlowInputPipeline);
    QCOMPARE(view.regime(), QStringLiteral("balanced"));
    QVERIFY2(view.taxPct() > 20, qPrintable(QString::number(view.taxPct())));
    QVERIFY(view.headline().contains(QStringLiteral("balanced")));
    qInfo("slow input pipeline: %s", qPrintable(view.headline()));

    // A sync every 10 steps pays the drain a tenth as often.
    const double everyStep = view.taxPct();
    view.setModel(view.model(), 10);
    QVERIFY2(view.taxPct() < everyStep / 5, qPrintable(QString::number(view.taxPct())));
    qInfo("slow input pipeline, every 10 steps: %.1f%%", view.taxPct());
}

void TestTeach::noSyncHasNoTax()
{
    TeachView view;
    view.setModel(TeachView::presetModel(TeachView::Preset::SlowInputPipeline), 0);
    QCOMPARE(view.syncEveryN(), int64_t(0));
    QCOMPARE(view.taxPct(), 0.0);
    QVERIFY(view.headline().contains(QStringLiteral("No sync")));
    auto* nSlider = view.findChild<QSlider*>(QStringLiteral("slider_sync"));
    QVERIFY(nSlider);
    QCOMPARE(nSlider->value(), nSlider->maximum());
}

void TestTeach::sliderMovesTheModel()
{
    TeachView view;
    view.applyPreset(TeachView::Preset::SlowInputPipeline);
    auto* hSlider = view.findChild<QSlider*>(QStringLiteral("slider_H"));
    auto* hBox = view.findChild<QDoubleSpinBox*>(QStringLiteral("box_H"));
    QVERIFY(hSlider && hBox);
    QSignalSpy changed(&view, &TeachView::modelChanged);
    hSlider->setValue(0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(hBox->value(), 0.0);
    QCOMPARE(view.model().hUs, 0.0);
    // G = 5 ms against D + H = 1 ms: GPU-bound now, and the tax shrinks.
    QCOMPARE(view.regime(), QStringLiteral("gpu_bound"));
    QVERIFY(view.taxPct() < 20);
}

void TestTeach::pipelineAnimatesOnlyWhileShown()
{
    PipelineWidget pipeline;
    pipeline.setModel(TeachView::presetModel(TeachView::Preset::SlowInputPipeline), 1);
    pipeline.setSpeed(10);
    QVERIFY(!pipeline.isAnimating());
    pipeline.resize(900, 380);
    pipeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pipeline));
    QVERIFY(pipeline.isAnimating());
    QTRY_VERIFY(pipeline.cursorMs() > 0);

    pipeline.hide();
    QVERIFY(!pipeline.isAnimating());
    const double stopped = pipeline.cursorMs();
    QTest::qWait(150);
    QCOMPARE(pipeline.cursorMs(), stopped);

    pipeline.show();
    QVERIFY(pipeline.isAnimating());
    pipeline.setPaused(true);
    QVERIFY(!pipeline.isAnimating());
}

void TestTeach::pipelineShowsTheSyncWaits()
{
    PipelineWidget pipeline;
    const QueueModel model = TeachView::presetModel(TeachView::Preset::SlowInputPipeline);
    pipeline.setModel(model, 1);
    const auto& with = pipeline.withSync().records;
    const auto& without = pipeline.withoutSync().records;
    QVERIFY(with.size() >= 10);
    QCOMPARE(with.size(), without.size());
    for (const StepRecord& r : with)
        QVERIFY(r.loggedNs >= r.gpuDoneNs); // item waits for the step's GPU work
    for (const StepRecord& r : without)
        QCOMPARE(r.loggedNs, r.dispatchedNs);
    QVERIFY(pipeline.withSync().msPerStep > 1.2 * pipeline.withoutSync().msPerStep);

    // Without syncs the host runs ahead: steps pile up in the queue, never more than it holds.
    const double capacity = double(model.queueCapacity) / double(model.k);
    double most = 0;
    const auto& trace = pipeline.withoutSync();
    for (int s = 0; s <= 400; ++s)
        most = std::max(most, pipeline.queuedSteps(trace, trace.originNs + pipeline.windowMs() * 1e6 * s / 400));
    QVERIFY2(most > 0.5 && most <= capacity + 1, qPrintable(QString::number(most)));
}

void TestTeach::heatmapPeaksOnTheBalancedDiagonal()
{
    RegimeHeatmap heatmap;
    QueueModel model = TeachView::presetModel(TeachView::Preset::TinyMlp);
    heatmap.setModel(model);
    QVERIFY(!heatmap.isComputed());
    QTRY_VERIFY(heatmap.isComputed());
    qInfo("heatmap: %.0f ms for %d cells", heatmap.lastComputeMs(), RegimeHeatmap::columns * RegimeHeatmap::rows);

    const int balancedColumn = RegimeHeatmap::columns / 2;
    QCOMPARE(RegimeHeatmap::ratioAt(balancedColumn), 1.0);
    const int midRow = RegimeHeatmap::rows / 2;
    const double corner = heatmap.taxAt(0, 0); // G = (D + H) / 10, H = 0: dispatch-bound
    const double diagonal = heatmap.taxAt(balancedColumn, midRow);
    qInfo("dispatch-bound corner %.1f%%, balanced diagonal %.1f%%, GPU-bound corner %.1f%%", corner, diagonal,
        heatmap.taxAt(RegimeHeatmap::columns - 1, 0));
    QVERIFY(corner < 5);
    QVERIFY(diagonal > 50);
    QVERIFY(heatmap.taxAt(RegimeHeatmap::columns - 1, 0) < diagonal);

    // Moving G or H only moves the cross; a new D needs a new grid, an old one comes from the cache.
    model.gMs = 3;
    heatmap.setModel(model);
    QVERIFY(heatmap.isComputed());
    model.dMs = 2;
    heatmap.setModel(model);
    heatmap.flush();
    QVERIFY(heatmap.taxAt(0, 0) < 5);
    model.dMs = 1;
    heatmap.setModel(model);
    QCOMPARE(heatmap.taxAt(balancedColumn, midRow), diagonal);
}

void TestTeach::taxCurvePeaksWhereHostAndGpuMatch()
{
    TaxCurveChart chart;
    const QueueModel model = TeachView::presetModel(TeachView::Preset::SlowInputPipeline);
    chart.setModel(model, 1);
    chart.flush();
    qInfo("tax curve: %.0f ms for %d points", chart.lastComputeMs(), TaxCurveChart::pointCount);
    QCOMPARE(int(chart.curve().size()), TaxCurveChart::pointCount);
    const auto peak = std::max_element(
        chart.curve().begin(), chart.curve().end(), [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); });
    const double hostMs = model.dMs + model.hUs * 1e-3;
    QVERIFY2(peak->x() > hostMs / 2 && peak->x() < hostMs * 2, qPrintable(QString::number(peak->x())));
    QVERIFY(chart.curve().front().y() < peak->y() / 4);
    QVERIFY(chart.curve().back().y() < peak->y() / 4);
    QCOMPARE(chart.current().x(), model.gMs);
    QVERIFY(std::abs(chart.current().y() - estimateSyncTax(model, 1).taxPct) < 1.0);

    // The worst case for the cost of a curve: many launches per step and a long sync interval.
    QueueModel heavy = model;
    heavy.k = 2000;
    chart.setModel(heavy, 100);
    chart.flush();
    qInfo("tax curve, K = 2000, n = 100: %.0f ms", chart.lastComputeMs());
}

void TestTeach::rendersTheWholeView()
{
    TeachView view;
    view.resize(1400, 900);
    view.applyPreset(TeachView::Preset::SlowInputPipeline);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.flush();
    QVERIFY(view.heatmap()->isComputed());
    view.pipeline()->setPaused(true);
    view.pipeline()->setCursorMs(view.pipeline()->windowMs() * 0.45);
    QCoreApplication::processEvents();
    const QImage image = view.grab().toImage();
    QCOMPARE(image.size(), QSize(1400, 900) * image.devicePixelRatio());
    QVERIFY(keepScreenshot(image, QStringLiteral("teach")));
    for (auto [preset, name] :
        { std::pair(TeachView::Preset::TinyMlp, "tiny"), std::pair(TeachView::Preset::ResNet50, "resnet") }) {
        view.applyPreset(preset);
        view.flush();
        QCoreApplication::processEvents();
        QVERIFY(keepScreenshot(view.grab(), QStringLiteral("teach-%1").arg(QLatin1String(name))));
        qInfo("%s: heatmap %.0f ms, tax curve %.0f ms", name, view.heatmap()->lastComputeMs(),
            view.taxCurve()->lastComputeMs());
    }
    view.applyPreset(TeachView::Preset::SlowInputPipeline);
    view.setModel(view.model(), 20);
    view.flush();
    QCoreApplication::processEvents();
    QVERIFY(keepScreenshot(view.grab(), QStringLiteral("teach-every20")));
}

namespace {

const char* const resnetTrace = SYNCTAX_TEST_DATA "/traces/torch-2.11-h200/resnet50-none.pt.trace.json.gz";

// The model's own answer for the same file, computed here: the trace read and analysed, its loop
// imported (importedLoop's default calibration), replayed with the knobs the view shows.
ImportedLoop resnetLoop()
{
    const TraceReadResult read = readKinetoTrace(resnetTrace);
    if (!read.trace)
        return {};
    const TraceReport report = analyseTrace(*read.trace);
    QElapsedTimer clock;
    clock.start();
    ImportedLoop loop = importedLoop(*read.trace, report, {});
    qInfo("importedLoop: %.1f ms (the window runs it once per load)", double(clock.nsecsElapsed()) * 1e-6);
    return loop;
}

double replayedTax(const StepSequence& seq, double hUs, double lUs, int64_t q, int64_t n)
{
    ReplayOptions options;
    options.hostWorkUs = hUs;
    options.syncUs = lUs;
    options.queueCapacity = q;
    ReplayCosts costs;
    costs.syncUs = lUs;
    return predictStyles(seq, { syncEveryNStyle(n) }, 0, options, costs).front().taxPct;
}

bool loadResnet(TeachView& view)
{
    QSignalSpy loaded(&view, &TeachView::launchSequenceLoaded);
    view.loadLaunchSequence(QString::fromLatin1(resnetTrace));
    // The load runs on the worker: its progress shows until the window has the sequence.
    auto* progress = view.findChild<QProgressBar*>();
    if (!progress || !progress->isVisibleTo(&view))
        return false;
    return (loaded.wait(60000) || loaded.count() == 1) && !progress->isVisibleTo(&view);
}

} // namespace

void TestTeach::replaysALoadedLaunchSequence()
{
    TeachView view;
    view.resize(1400, 900);
    view.applyPreset(TeachView::Preset::SlowInputPipeline);
    QCOMPARE(view.modelLabel(), QStringLiteral("uniform model"));
    auto* load = view.findChild<QPushButton*>(QStringLiteral("loadLaunchSequence"));
    QVERIFY(load && load->text() == QStringLiteral("Load launch sequence…"));
    const QList<QAction*> actions = view.actions();
    QVERIFY(std::any_of(actions.begin(), actions.end(),
        [](const QAction* a) { return a->shortcut() == QKeySequence(QStringLiteral("Ctrl+L")); }));
    const ImportedLoop loop = resnetLoop();
    QVERIFY(loop.available);
    QVERIFY(loadResnet(view));
    QVERIFY(view.hasLaunchSequence());

    // K and G by a Python count over the raw JSON: in the median step by duration (ProfilerStep#2),
    // the cudaLaunchKernel/ExC, cudaMemsetAsync and cuLaunchKernel calls whose args.correlation a
    // kernel or gpu_memset shares: 806, their GPU durations adding up to 31094.25 µs.
    QCOMPARE(loop.base.ops.size(), size_t(806));
    QCOMPARE(view.modelLabel(), QStringLiteral("replay of resnet50-none.pt.trace.json.gz, 806 launches"));
    auto* modelLabel = view.findChild<QLabel*>(QStringLiteral("teachModelLabel"));
    QVERIFY(modelLabel && modelLabel->text().contains(view.modelLabel()));

    const auto box = [&](const char* name) { return view.findChild<QDoubleSpinBox*>(QLatin1String(name)); };
    const auto slider = [&](const char* name) { return view.findChild<QSlider*>(QLatin1String(name)); };
    QVERIFY(box("box_D") && box("box_G") && box("box_K") && box("box_H") && box("box_L") && box("box_Q"));
    const auto check = [&](double hMs) {
        const ReplayRegime expected = replayRegime(loop.base, hMs * 1e3);
        const ReplayRegime shown = view.launchSequenceRegime();
        QCOMPARE(shown.dMs, expected.dMs);
        QCOMPARE(shown.gMs, expected.gMs);
        // The trace's GPU ops (31.09425 ms) and, before each of its 806, the 1.44 us the GPU spends
        // between queued ops in that trace.
        QVERIFY2(std::abs(expected.gMs - (31.09425 + 806 * 1.44e-3)) < 1e-6,
            qPrintable(QString::number(expected.gMs, 'f', 8)));
        QCOMPARE(view.regime(), QString::fromStdString(expected.label));
        // The boxes show the same to their decimals (2 for ms, 0 for K).
        QVERIFY2(std::abs(box("box_D")->value() - expected.dMs) <= 0.005, qPrintable(box("box_D")->text()));
        QVERIFY2(std::abs(box("box_G")->value() - expected.gMs) <= 0.005, qPrintable(box("box_G")->text()));
        QCOMPARE(box("box_K")->value(), 806.0);
        for (const char* fixed : { "D", "G", "K" }) {
            QVERIFY(!box(qPrintable(QStringLiteral("box_%1").arg(QLatin1String(fixed))))->isEnabled());
            QVERIFY(!slider(qPrintable(QStringLiteral("slider_%1").arg(QLatin1String(fixed))))->isEnabled());
        }
        for (const char* live : { "box_H", "box_L", "box_Q", "box_sync" })
            QVERIFY(box(live)->isEnabled());
        const QueueModel m = view.model();
        QCOMPARE(m.hUs, hMs * 1e3);
        const double tax = replayedTax(loop.base, m.hUs, m.lUs, m.queueCapacity, view.syncEveryN());
        QCOMPARE(view.taxPct(), tax);
        QVERIFY2(std::abs(headlineTax(view.headline()) - tax) < 0.051, qPrintable(view.headline()));
        qInfo("H %.1f ms: D %.3f ms, G %.3f ms, %s, item %+.2f%%", hMs, expected.dMs, expected.gMs,
            expected.label.c_str(), tax);
    };
    // L starts at the imported loop's Python .item(), H at 0 (the step holds its own host work);
    // Q and the interval stay as the sliders had them.
    QCOMPARE(view.model().lUs, loop.costs.syncUs);
    QCOMPARE(view.model().queueCapacity, int64_t(1021));
    QCOMPARE(view.syncEveryN(), int64_t(1));
    check(0);

    // H stays live: the replay follows it, a redraw's own part timed (the charts go to the worker).
    QElapsedTimer clock;
    clock.start();
    box("box_H")->setValue(15);
    qInfo("a move of H with the sequence: %.1f ms on the window's thread (headline and pipeline)",
        double(clock.nsecsElapsed()) * 1e-6);
    check(15);
    box("box_H")->setValue(4);
    check(4);

    // The charts: the curve's own point is the headline's tax, each point the sequence with its GPU
    // scaled; the map's cells likewise, at their H and G / (D + H).
    view.flush();
    qInfo("replay charts: curve %.0f ms (%d points), map %.0f ms (%d cells)", view.replaySweeps()->lastCurveMs(),
        TaxCurveChart::pointCount, view.replaySweeps()->lastGridMs(), RegimeHeatmap::columns * RegimeHeatmap::rows);
    const QueueModel m = view.model();
    QCOMPARE(view.taxCurve()->current().y(), view.taxPct());
    QCOMPARE(int(view.taxCurve()->curve().size()), TaxCurveChart::pointCount);
    const QPointF point = view.taxCurve()->curve()[20];
    QCOMPARE(point.y(), replayedTax(withGpuTimeMs(loop.base, point.x()), m.hUs, m.lUs, m.queueCapacity, 1));
    QVERIFY(view.heatmap()->isComputed());
    const int column = RegimeHeatmap::columns / 2, row = 3;
    const double cellH = RegimeHeatmap::hostWorkMsAt(row);
    const double cellG = RegimeHeatmap::ratioAt(column) * (replayRegime(loop.base, 0).dMs + cellH);
    QCOMPARE(view.heatmap()->taxAt(column, row),
        replayedTax(withGpuTimeMs(loop.base, cellG), cellH * 1e3, m.lUs, m.queueCapacity, 1));
    // The pipeline draws the replay's steps: item's host returns once the step's GPU work is done.
    for (const StepRecord& r : view.pipeline()->withSync().records)
        QVERIFY(r.loggedNs >= r.gpuDoneNs);

    box("box_sync")->setValue(100);
    view.flush();
    qInfo("replay curve of item every 100 steps: %.0f ms", view.replaySweeps()->lastCurveMs());
    box("box_sync")->setValue(1);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.flush();
    view.pipeline()->setPaused(true);
    view.pipeline()->setCursorMs(view.pipeline()->windowMs() * 0.45);
    QCoreApplication::processEvents();
    QVERIFY(keepScreenshot(view.grab(), QStringLiteral("teach-launch-sequence")));

    // Back to the sliders: D, G, K, H and L as they were, the uniform model again.
    auto* back = view.findChild<QPushButton*>(QStringLiteral("backToSliders"));
    QVERIFY(back && back->isEnabled());
    back->click();
    QVERIFY(!view.hasLaunchSequence());
    QCOMPARE(view.modelLabel(), QStringLiteral("uniform model"));
    QCOMPARE(view.model().dMs, 1.0);
    QCOMPARE(view.model().gMs, 5.0);
    QCOMPARE(view.model().k, int64_t(100));
    QCOMPARE(view.model().hUs, 4000.0);
    QCOMPARE(view.model().lUs, 8.0);
    QVERIFY(box("box_D")->isEnabled() && slider("slider_K")->isEnabled());
    QCOMPARE(view.taxPct(), estimateSyncTax(view.model(), view.syncEveryN()).taxPct);
}

void TestTeach::replayChartsArriveFromTheWorker()
{
    TeachView view;
    QVERIFY(loadResnet(view));
    const ImportedLoop loop = resnetLoop();
    // No flush: the worker's curve for the new H arrives by itself, its point on the headline's tax.
    auto* hBox = view.findChild<QDoubleSpinBox*>(QStringLiteral("box_H"));
    hBox->setValue(10);
    const double tax = view.taxPct();
    QTRY_COMPARE_WITH_TIMEOUT(view.taxCurve()->current().y(), tax, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(view.heatmap()->isComputed(), 30000);
    QCOMPARE(view.replaySweeps()->curve().knobs.hUs, 10000.0);
    QCOMPARE(tax, replayedTax(loop.base, 10000, view.model().lUs, view.model().queueCapacity, 1));
    // A preset is a uniform model: the sequence steps aside.
    view.applyPreset(TeachView::Preset::TinyMlp);
    QVERIFY(!view.hasLaunchSequence());
    QCOMPARE(view.model().k, int64_t(59));
}

void TestTeach::aFileWithoutASequenceLeavesTheSliders()
{
    TeachView view;
    view.applyPreset(TeachView::Preset::ResNet50);
    const double before = view.taxPct();
    QSignalSpy failed(&view, &TeachView::launchSequenceFailed);
    view.loadLaunchSequence(QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-app.json"));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.front().front().toString().contains(QStringLiteral("no group of this run has a captured launch")),
        qPrintable(failed.front().front().toString()));
    view.loadLaunchSequence(QStringLiteral("/nonexistent/trace.json.gz"));
    QCOMPARE(failed.count(), 2);
    // Another file asked for while a trace loads: that load is cancelled and its result dropped.
    QSignalSpy loaded(&view, &TeachView::launchSequenceLoaded);
    view.loadLaunchSequence(QString::fromLatin1(resnetTrace));
    QVERIFY(view.launchSequenceLoader()->isLoading());
    view.loadLaunchSequence(QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-app.json"));
    QCOMPARE(failed.count(), 3);
    QVERIFY(!view.launchSequenceLoader()->isLoading());
    QTRY_COMPARE_WITH_TIMEOUT(view.launchSequenceLoader()->droppedResults(), 1, 30000);
    QCOMPARE(loaded.count(), 0);
    QVERIFY(!view.hasLaunchSequence());
    QCOMPARE(view.modelLabel(), QStringLiteral("uniform model"));
    QCOMPARE(view.taxPct(), before);
    QVERIFY(view.findChild<QDoubleSpinBox*>(QStringLiteral("box_D"))->isEnabled());
}

void TestTeach::loadsTheCapturedStepOfARunsResults()
{
    // A run on the H200 whose results hold each group's captured, calibrated step: the Teach window
    // replays the first group's (tiny_mlp/eager), with its measured L.
    const QString path = QStringLiteral(SYNCTAX_TEST_DATA "/results/h200/seed-with-capture.json.gz");
    const ResultsLoadResult loaded = loadResultsFile(path.toStdString());
    QVERIFY(loaded.result && loaded.result->groups.front().replay);
    const CapturedReplay& replay = *loaded.result->groups.front().replay;
    TeachView view;
    QSignalSpy failed(&view, &TeachView::launchSequenceFailed);
    view.loadLaunchSequence(path);
    QCOMPARE(failed.count(), 0);
    QVERIFY(view.hasLaunchSequence());
    QVERIFY2(view.modelLabel().contains(QStringLiteral("tiny_mlp/eager")), qPrintable(view.modelLabel()));
    const auto* l = view.findChild<QDoubleSpinBox*>(QStringLiteral("box_L"));
    QVERIFY(l);
    QVERIFY2(std::abs(l->value() - replay.costs.syncUs) <= 0.51, qPrintable(QString::number(l->value())));
    QVERIFY(!view.findChild<QDoubleSpinBox*>(QStringLiteral("box_D"))->isEnabled());
}

QTEST_MAIN(TestTeach)
#include "tst_teach.moc"
