#include "core/queuemodel/taxestimate.h"
#include "ui/charts/taxcurvechart.h"
#include "ui/teach/pipelinewidget.h"
#include "ui/teach/regimeheatmap.h"
#include "ui/teach/teachview.h"

#include "testfiles.h"
#include <QDoubleSpinBox>
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

QTEST_MAIN(TestTeach)
#include "tst_teach.moc"
