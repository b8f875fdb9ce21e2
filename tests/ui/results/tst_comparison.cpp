#include "core/config/stylecatalog.h"
#include "ui/mainwindow.h"
#include "ui/results/comparisonmodel.h"
#include "ui/results/comparisonview.h"
#include "ui/results/explanationpanel.h"

#include "testfiles.h"
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QColor>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>

#include <QTest>

using namespace synctax;

namespace {

CellResult cell(const std::string& model, const std::string& style, double ms, std::optional<Interval> overhead,
    std::optional<Verdict> verdict)
{
    CellResult c;
    c.model = model;
    c.mode = "eager";
    c.style = style;
    c.stepsMeasured = 600;
    c.stepMs = { ms, ms * 0.98, ms * 1.03, ms };
    c.blockRounds = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    c.pairedRounds = 12;
    c.overheadPct = overhead;
    c.verdict = verdict;
    return c;
}

GroupResult group(const std::string& model, const std::string& label, double dMs, double gMs)
{
    GroupResult g;
    g.model = model;
    g.mode = "eager";
    g.rounds = 12;
    g.stopReason = "ci_target";
    g.noiseFloorPct = 0.4;
    g.regime.available = true;
    g.regime.label = label;
    g.regime.dMs = dMs;
    g.regime.gMs = gMs;
    g.regime.lUs = 8;
    g.regime.k = 161;
    return g;
}

// Two models, four styles (listed out of catalog order on purpose), one failed cell.
ExperimentResult handMade()
{
    ExperimentResult r;
    r.groups = { group("resnet50", "balanced", 8.7, 7.7), group("tiny_mlp", "dispatch_bound", 1.01, 0.23) };
    CellResult failed = cell("tiny_mlp", "progress_bar", 0, std::nullopt, std::nullopt);
    failed.ok = false;
    failed.error = "sink not writable";
    failed.stepsMeasured = 0;
    CellResult item = cell("resnet50", "item", 8.54, Interval { 6.2, 4.7, 7.4 }, Verdict::Significant);
    item.naiveBestOfPct = 5.1;
    item.syncsPerStep = 1.0;
    item.queue = QueueSummary { 0.05, 0.0, 1 };
    r.cells = {
        item,
        cell("resnet50", "none", 8.04, std::nullopt, Verdict::Baseline),
        cell("resnet50", "progress_bar", 8.20, Interval { -2.5, -3.6, -1.4 }, Verdict::Significant),
        cell("resnet50", aaControlStyle(), 8.05, Interval { 0.1, -0.3, 0.4 }, Verdict::WithinNoise),
        cell("tiny_mlp", "none", 0.231, std::nullopt, Verdict::Baseline),
        cell("tiny_mlp", aaControlStyle(), 0.232, Interval { 0.2, -0.4, 0.6 }, Verdict::WithinNoise),
        cell("tiny_mlp", "item", 0.239, Interval { 3.2, 1.9, 4.4 }, Verdict::Significant),
        failed,
    };
    return r;
}

int rowOf(const QAbstractItemModel& model, const QString& style)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data().toString() == style)
            return row;
    }
    return -1;
}

QStringList columnOfStyles(const QAbstractItemModel& model)
{
    QStringList styles;
    for (int row = 0; row < model.rowCount(); ++row)
        styles << model.index(row, 0).data().toString();
    return styles;
}

} // namespace

class TestComparison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shapeFollowsStylesAndGroups()
    {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSortRole(ComparisonModel::SortRole);
        proxy.setDynamicSortFilter(true);
        proxy.setSourceModel(&model);
        proxy.sort(1, Qt::DescendingOrder);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);

        ExperimentResult r = handMade();
        model.setResult(r);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(columnOfStyles(model), (QStringList { "none", "aa_control", "item", "progress_bar" }));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("style"));
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("resnet50"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("tiny_mlp"));
        QCOMPARE(model.modelOfColumn(2), QStringLiteral("tiny_mlp"));
        QCOMPARE(model.modeOfColumn(2), QStringLiteral("eager"));

        // A live snapshot with new numbers but the same cells: no reset, the views keep their state.
        r.cells[0].overheadPct = Interval { 1.0, 0.5, 1.5 };
        model.setResult(r);
        QCOMPARE(resets.count(), 1);
        QVERIFY(changes.count() >= 1);
        QCOMPARE(model.index(rowOf(model, "item"), 1).data().toString(), QStringLiteral("+1.0% [+0.5, +1.5]"));
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("item")); // tiny_mlp item +3.2 leads

        // A new style changes the shape.
        r.cells.push_back(cell("tiny_mlp", "item_every_n", 0.233, Interval { 0.5, 0.1, 0.9 }, Verdict::Significant));
        model.setResult(r);
        QCOMPARE(resets.count(), 2);
        QCOMPARE(columnOfStyles(model), (QStringList { "none", "aa_control", "item", "item_every_n", "progress_bar" }));
        QCOMPARE(model.index(rowOf(model, "item_every_n"), 1).data(), QVariant()); // resnet50 did not run it

        // A second mode names the mode in every header.
        CellResult graph = cell("resnet50", "none", 7.9, std::nullopt, Verdict::Baseline);
        graph.mode = "cuda_graph";
        r.cells.push_back(graph);
        model.setResult(r);
        QCOMPARE(resets.count(), 3);
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("resnet50 (eager)"));
        QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("resnet50 (cuda_graph)"));

        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
        QCOMPARE(proxy.rowCount(), 0);
    }

    void rolesCarryTheNumbers()
    {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ExperimentResult r = handMade();
        r.cells.push_back(cell("tiny_mlp", "item_every_n", 0.234, std::nullopt, std::nullopt)); // no interval yet
        CellResult unmeasured = cell("resnet50", "item_every_n", 0, std::nullopt, std::nullopt);
        unmeasured.stepsMeasured = 0;
        r.cells.push_back(unmeasured);
        model.setResult(r);

        const int none = rowOf(model, "none");
        const int aa = rowOf(model, "aa_control");
        const int item = rowOf(model, "item");
        const int bar = rowOf(model, "progress_bar");
        const int everyN = rowOf(model, "item_every_n");
        const auto at = [&](int row, int column, int role) { return model.index(row, column).data(role); };

        QCOMPARE(at(item, 1, Qt::DisplayRole).toString(), QStringLiteral("+6.2% [+4.7, +7.4]"));
        QCOMPARE(at(none, 1, Qt::DisplayRole).toString(), QStringLiteral("8.04 ms  baseline"));
        QCOMPARE(at(none, 2, Qt::DisplayRole).toString(), QStringLiteral("0.231 ms  baseline"));
        QCOMPARE(at(bar, 2, Qt::DisplayRole).toString(), QStringLiteral("failed"));
        QCOMPARE(at(everyN, 2, Qt::DisplayRole).toString(), QStringLiteral("0.234 ms"));
        QCOMPARE(at(everyN, 1, Qt::DisplayRole).toString(), QStringLiteral("—"));

        const QString tip = at(item, 1, Qt::ToolTipRole).toString();
        // The style's own mean, which the cell leaves to its tooltip beside the paired overhead.
        QVERIFY2(tip.contains("step: mean 8.54 ms"), qPrintable(tip));
        QVERIFY2(tip.contains("rounds paired with the baseline: 12"), qPrintable(tip));
        QVERIFY2(tip.contains("verdict: significant"), qPrintable(tip));
        QVERIFY2(tip.contains("naive best-of: 5.1%"), qPrintable(tip));
        QVERIFY2(tip.contains("syncs/step: 1.00"), qPrintable(tip));
        QVERIFY2(tip.contains("queue: median 0.0 steps"), qPrintable(tip));
        QVERIFY(at(bar, 2, Qt::ToolTipRole).toString().contains("sink not writable"));
        QVERIFY(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString().contains("Dispatch-bound"));

        QCOMPARE(at(item, 1, ComparisonModel::SortRole).toDouble(), 6.2);
        QCOMPARE(at(bar, 1, ComparisonModel::SortRole).toDouble(), -2.5);
        QCOMPARE(at(none, 1, ComparisonModel::SortRole).toDouble(), 0.0);
        QVERIFY(!at(bar, 2, ComparisonModel::SortRole).isValid());

        const auto colour = [&](int row, int column) { return at(row, column, Qt::BackgroundRole).value<QColor>(); };
        const QColor grey = colour(aa, 1);
        QCOMPARE(grey.red(), grey.green()); // neutral
        QCOMPARE(grey.green(), grey.blue());
        const QColor strongRed = colour(item, 1); // +6.2%
        const QColor mildRed = colour(item, 2); // +3.2%
        QVERIFY(strongRed.red() > strongRed.green() && mildRed.red() > mildRed.green());
        QVERIFY2(strongRed.lightness() < mildRed.lightness(), "a larger slowdown must be a deeper red");
        const QColor green = colour(bar, 1); // -2.5%
        QVERIFY(green.green() > green.red());
        QVERIFY(colour(bar, 2).lightness() < 80); // failed: dark
        QCOMPARE(at(bar, 2, Qt::ForegroundRole).value<QColor>(), QColor(Qt::white));
        QVERIFY(!at(none, 1, Qt::BackgroundRole).isValid());
    }

    void aTooNoisyModelColoursNoCellAsAFinding()
    {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // resnet50 as on the 2-core CPU: its A/A control came out "significant" at +9.8% [+1.3, +21.1].
        ExperimentResult r = handMade();
        r.cells[3].overheadPct = Interval { 9.8, 1.3, 21.1 };
        r.cells[3].verdict = Verdict::Significant;
        r.groups[0].noiseFloorPct = 21.1;
        r.groups[0].noiseVerdict = NoiseVerdict::ControlNotWithinNoise;
        r.groups[1].noiseVerdict = NoiseVerdict::Trusted;
        model.setResult(r);

        const auto colour = [&](const char* style, int column) {
            return model.index(rowOf(model, style), column).data(Qt::BackgroundRole).value<QColor>();
        };
        const QColor noise = ComparisonModel::colour(ComparisonModel::Shade::WithinNoise);
        QCOMPARE(colour("aa_control", 1), noise); // not red
        QCOMPARE(colour("item", 1), noise); // +6.2% [+4.7, +7.4], significant on its own
        QCOMPARE(colour("progress_bar", 1), noise); // -2.5%, not green
        QCOMPARE(colour("item", 2), ComparisonModel::colour(ComparisonModel::Shade::Slower)); // tiny_mlp is quiet
        QVERIFY(!model.index(rowOf(model, "none"), 1).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.noiseWarning(),
            QStringLiteral("Too noisy to tell styles apart, so no cell is coloured as a finding. resnet50: the A/A "
                           "control's interval excludes 0; noise floor 21.1% is above 5%. The A/A control runs the "
                           "same loop twice; more rounds or a quieter machine narrow the noise."));
        const QString header = model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(header.contains("too noisy to tell styles apart: noise floor 21.1% is above 5%"), qPrintable(header));
        const QString tip = model.index(rowOf(model, "item"), 1).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("not a finding: the model is too noisy"), qPrintable(tip));
        QVERIFY(!model.index(rowOf(model, "item"), 2).data(Qt::ToolTipRole).toString().contains("not a finding"));

        // A live snapshot that has quietened down colours its findings again, without a reset.
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        r.groups[0].noiseVerdict = NoiseVerdict::Trusted;
        r.groups[0].noiseFloorPct = 0.4;
        model.setResult(r);
        QVERIFY(changes.count() >= 1);
        QCOMPARE(colour("item", 1), ComparisonModel::colour(ComparisonModel::Shade::MuchSlower));
        QVERIFY(model.noiseWarning().isEmpty());
    }

    void viewShowsALegendAndTheNoiseBanner()
    {
        ComparisonModel model;
        ExperimentResult r = handMade();
        model.setResult(r);
        ComparisonView view;
        view.setComparisonModel(&model);
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // Every colour a cell can have is named beside its swatch.
        const QString legend = view.legendText();
        for (ComparisonModel::Shade shade : ComparisonModel::legend()) {
            QVERIFY2(legend.contains(ComparisonModel::colour(shade).name()), qPrintable(legend));
            QVERIFY2(legend.contains(ComparisonModel::meaning(shade)), qPrintable(legend));
        }
        QVERIFY(view.legendLabel()->isVisible());
        QVERIFY(view.legendLabel()->geometry().top() > view.viewport()->geometry().bottom());
        QVERIFY(view.legendLabel()->height() >= view.legendLabel()->heightForWidth(view.legendLabel()->width()));
        QVERIFY(view.bannerText().isEmpty());
        QVERIFY(!view.bannerLabel()->isVisible());

        r.groups[1].noiseFloorPct = 12.5;
        r.groups[1].noiseVerdict = NoiseVerdict::FloorTooHigh;
        model.setResult(r);
        QCOMPARE(view.bannerText(), model.noiseWarning());
        QVERIFY(view.bannerText().contains("tiny_mlp: noise floor 12.5% is above 5%"));
        QVERIFY(view.bannerLabel()->isVisible());
        // Above the header, which stays right above the rows.
        QVERIFY(view.bannerLabel()->geometry().bottom() < view.horizontalHeader()->geometry().top());
        QCOMPARE(view.horizontalHeader()->geometry().bottom() + 1, view.viewport()->geometry().top());

        model.clear();
        QVERIFY(view.bannerText().isEmpty());
    }

    void sortingOrdersByTheEstimate()
    {
        ComparisonModel model;
        model.setResult(handMade());
        ComparisonView view;
        view.setComparisonModel(&model);
        QAbstractItemModelTester proxyTester(view.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        view.sortByColumn(1, Qt::AscendingOrder);
        QCOMPARE(columnOfStyles(*view.model()), (QStringList { "progress_bar", "none", "aa_control", "item" }));
        view.sortByColumn(1, Qt::DescendingOrder);
        QCOMPARE(columnOfStyles(*view.model()), (QStringList { "item", "aa_control", "none", "progress_bar" }));
        view.sortByColumn(0, Qt::AscendingOrder); // the style column sorts by catalog position
        QCOMPARE(columnOfStyles(*view.model()), (QStringList { "none", "aa_control", "item", "progress_bar" }));

        // A live update re-sorts.
        ExperimentResult r = handMade();
        r.cells[2].overheadPct = Interval { 9.0, 8.0, 10.0 }; // resnet50 progress_bar
        model.setResult(r);
        view.sortByColumn(1, Qt::DescendingOrder);
        QCOMPARE(view.model()->index(0, 0).data().toString(), QStringLiteral("progress_bar"));
    }

    void copyWritesTsvWithHeaders()
    {
        ComparisonModel model;
        model.setResult(handMade());
        ComparisonView view;
        view.setComparisonModel(&model);
        view.sortByColumn(1, Qt::DescendingOrder);

        // Two cells of the resnet50 column: the style still leads each line.
        auto* proxy = view.model();
        view.selectionModel()->select(proxy->index(0, 1), QItemSelectionModel::Select);
        view.selectionModel()->select(proxy->index(3, 1), QItemSelectionModel::Select);
        QCOMPARE(view.selectionAsTsv(),
            QStringLiteral("style\tresnet50\n"
                           "item\t+6.2% [+4.7, +7.4]\n"
                           "progress_bar\t-2.5% [-3.6, -1.4]\n"));

        view.selectAll();
        view.setFocus();
        QGuiApplication::clipboard()->clear();
        QTest::keySequence(&view, QKeySequence::Copy);
        const QStringList lines = QGuiApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[0], QStringLiteral("style\tresnet50\ttiny_mlp"));
        QCOMPARE(lines[1], QStringLiteral("item\t+6.2% [+4.7, +7.4]\t+3.2% [+1.9, +4.4]"));
        QCOMPARE(lines[4], QStringLiteral("progress_bar\t-2.5% [-3.6, -1.4]\tfailed"));
    }

    void currentCellSelectsItsGroup()
    {
        ComparisonModel model;
        model.setResult(handMade());
        ComparisonView view;
        view.setComparisonModel(&model);
        QSignalSpy spy(&view, &ComparisonView::groupSelected);
        view.setCurrentIndex(view.model()->index(1, 2));
        QCOMPARE(spy.count(), 1);
        const GroupKey selected = spy.at(0).at(0).value<GroupKey>();
        QCOMPARE(QString::fromStdString(selected.model), QStringLiteral("tiny_mlp"));
        QCOMPARE(QString::fromStdString(selected.mode), QStringLiteral("eager"));
    }

    void explanationShowsTheRegime()
    {
        ExplanationPanel panel;
        QCOMPARE(panel.headingText(), QStringLiteral("No result yet"));
        const ExperimentResult r = handMade();
        panel.setResult(r);
        QCOMPARE(panel.titleText(), QStringLiteral("resnet50 · eager")); // the first group until one is chosen
        QCOMPARE(panel.headingText(), QStringLiteral("Balanced"));
        QVERIFY2(
            panel.explanationText().startsWith("Host 8.70 ms and GPU 7.70 ms"), qPrintable(panel.explanationText()));
        QVERIFY(panel.explanationText().contains("+6.2% [+4.7, +7.4]"));

        panel.setGroup(GroupKey { "tiny_mlp", "eager" });
        QCOMPARE(panel.headingText(), QStringLiteral("Dispatch-bound"));
        QVERIFY(panel.explanationText().contains("1.01 ms"));
        QVERIFY(panel.explanationText().contains("+3.2% [+1.9, +4.4]"));
        QCOMPARE(panel.numbersText(), QStringLiteral("D 1.01 ms · G 0.230 ms · L 8.0 µs · K 161 · H 0 µs"));

        ExperimentResult cpu = r;
        for (auto& g : cpu.groups)
            g.regime = RegimeMeasurement { false, "the device is a CPU", 0, 0, 0, -1, 0, false, "" };
        panel.setResult(cpu);
        QCOMPARE(panel.titleText(), QStringLiteral("tiny_mlp · eager")); // the choice survives a new result
        QCOMPARE(panel.headingText(), QStringLiteral("No GPU queue"));
        QVERIFY2(panel.explanationText().startsWith("On the CPU the overheads are host costs only"),
            qPrintable(panel.explanationText()));
        QVERIFY2(panel.explanationText().endsWith("No GPU queue to explain: every op runs synchronously, so a sync "
                                                  "such as item() waits for nothing (the device is a CPU)."),
            qPrintable(panel.explanationText()));
        QVERIFY(panel.numbersText().isEmpty());
    }

    // A CPU run's three models, with the wide intervals of a few rounds, in the window's default
    // layout at 1600x1000: every column is seen whole, beside the charts, without scrolling.
    void theTableFitsBesideTheChartsForThreeModels()
    {
        MainWindow window(nullptr, false);
        window.setQuiet(true);
        window.resize(1600, 1000);
        QString error;
        QVERIFY2(
            window.openResults(QStringLiteral(SYNCTAX_TEST_DATA "/results/cpu-quick.json"), &error), qPrintable(error));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* table = window.findChild<ComparisonView*>(QStringLiteral("comparisonView"));
        QVERIFY(table);
        QCOMPARE(table->model()->columnCount(), 4);
        QTRY_COMPARE(table->horizontalScrollBar()->maximum(), 0);
        const int last = table->model()->columnCount() - 1;
        QVERIFY2(table->columnViewportPosition(last) + table->columnWidth(last) <= table->viewport()->width(),
            qPrintable(QStringLiteral("%1 + %2 > %3")
                           .arg(table->columnViewportPosition(last))
                           .arg(table->columnWidth(last))
                           .arg(table->viewport()->width())));
        keepScreenshot(window.grab(), QStringLiteral("table-fits"));
    }

    void renderOffscreen()
    {
        ComparisonModel model;
        ExperimentResult r = handMade();
        r.cells.push_back(
            cell("resnet50", "metrics_item_each", 8.21, Interval { 1.4, 0.9, 1.9 }, Verdict::Significant));
        r.cells.push_back(
            cell("tiny_mlp", "metrics_item_each", 0.250, Interval { 8.1, 6.0, 10.3 }, Verdict::Significant));
        r.cells.push_back(
            cell("resnet50", "deferred_async", 8.03, Interval { -0.7, -1.1, -0.3 }, Verdict::Significant));
        r.cells.push_back(cell("tiny_mlp", "deferred_async", 0.232, Interval { 0.3, -0.2, 0.7 }, Verdict::WithinNoise));
        r.groups[1].noiseFloorPct = 12.5; // tiny_mlp: its significant cells lose their colours
        r.groups[1].noiseVerdict = NoiseVerdict::FloorTooHigh;
        model.setResult(r);
        ComparisonView view;
        view.setComparisonModel(&model);
        view.resize(view.horizontalHeader()->length() + 4, 380);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int row = 0; row < view.model()->rowCount(); ++row) { // nothing elided
            for (int c = 0; c < view.model()->columnCount(); ++c) {
                const QModelIndex i = view.model()->index(row, c);
                const QFont font = i.data(Qt::FontRole).isValid() ? i.data(Qt::FontRole).value<QFont>() : view.font();
                QVERIFY(QFontMetrics(font).horizontalAdvance(i.data().toString()) < view.columnWidth(c));
            }
        }
        QVERIFY(keepScreenshot(view.grab(), QStringLiteral("comparison")));

        QWidget dock;
        auto* layout = new QHBoxLayout(&dock);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* gpu = new ExplanationPanel(&dock);
        gpu->setResult(r);
        auto* cpuPanel = new ExplanationPanel(&dock);
        ExperimentResult cpu = r;
        for (auto& g : cpu.groups)
            g.regime = RegimeMeasurement { false, "the device is a CPU", 0, 0, 0, -1, 0, false, "" };
        cpuPanel->setResult(cpu);
        layout->addWidget(gpu);
        layout->addWidget(cpuPanel);
        dock.resize(600, 320); // two docks of about 300 px
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QVERIFY(gpu->width() <= 310);
        QVERIFY(gpu->height() >= gpu->minimumSizeHint().height());
        QVERIFY(keepScreenshot(dock.grab(), QStringLiteral("explanation")));
    }
};

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"
