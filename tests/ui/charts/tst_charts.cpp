#include "core/analysis/experimentresult.h"
#include "core/config/experimentconfig.h"
#include "core/config/stylecatalog.h"
#include "core/results/resultsloader.h"
#include "core/steps/cellplan.h"
#include "core/steps/runhistory.h"
#include "ui/charts/abtaxchart.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/downsample.h"
#include "ui/charts/overheadchart.h"
#include "ui/charts/phasestepchart.h"
#include "ui/charts/queuechart.h"
#include "ui/charts/sitewaitchart.h"
#include "ui/charts/stepchart.h"

#include "legendcheck.h"

#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QMenu>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

using namespace synctax;

namespace {

StepRecord record(uint32_t cell, int round, uint32_t step, double stepMs, float lagMs = -1, int32_t queueSteps = -1)
{
    StepRecord r;
    r.runId = 7;
    r.cell = cell;
    r.round = round;
    r.step = step;
    r.startNs = 0;
    r.loggedNs = int64_t(stepMs * 1e6);
    r.lagMs = lagMs;
    r.queueSteps = queueSteps;
    return r;
}

CellPlan plan(uint32_t index, const char* model, const char* style)
{
    return cellPlan(index, { { model, "eager" }, style });
}

template <typename Series> QList<Series*> seriesOf(QChartView& view)
{
    QList<Series*> found;
    for (QAbstractSeries* s : view.chart()->series()) {
        if (auto* typed = qobject_cast<Series*>(s))
            found.append(typed);
    }
    return found;
}

QLineSeries* lineNamed(QChartView& view, const QString& name)
{
    for (QLineSeries* s : seriesOf<QLineSeries>(view)) {
        if (s->name() == name)
            return s;
    }
    return nullptr;
}

QByteArray head(const QString& path, int bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(bytes);
}

// Shows a chart offscreen so its layout (plot area, axes) is real.
void showAt(QWidget& widget, QSize size)
{
    widget.resize(size);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
}

// With SYNCTAX_SCREENSHOT_DIR set, keeps a picture of each chart to look at.
void screenshot(QWidget& widget, const char* name)
{
    const QByteArray dir = qgetenv("SYNCTAX_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/chart-%1.png").arg(QLatin1String(name)));
}

// The CIE76 distance of two colours: their Euclidean distance in CIELAB (D65), where about 2.3 is
// the least difference seen side by side.
double labDistance(const QColor& a, const QColor& b)
{
    const auto lab = [](const QColor& c) {
        const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        const double r = linear(c.redF());
        const double g = linear(c.greenF());
        const double bl = linear(c.blueF());
        const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
        const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
        const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
        const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
        return std::array<double, 3> { 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)) };
    };
    const auto p = lab(a);
    const auto q = lab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

QString plainText(const QGraphicsTextItem& item)
{
    QString plain = item.toPlainText();
    plain.remove(QRegularExpression(QStringLiteral("\\s")));
    return plain;
}

// Empty when each style's label is drawn whole, clear of its neighbours and inside the chart, and
// no text of the chart is cut short; else what is wrong.
QStringList labelProblems(OverheadChart& chart)
{
    QStringList problems;
    std::vector<QRectF> labels;
    for (const QString& style : chart.styles()) {
        const QGraphicsTextItem* found = nullptr;
        for (QGraphicsItem* item : chart.scene()->items()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (text && text->isVisible() && plainText(*text) == style)
                found = text;
        }
        if (!found) {
            problems << style + QStringLiteral(" not drawn whole");
            continue;
        }
        const QRectF box = found->sceneBoundingRect();
        if (!labels.empty() && box.left() < labels.back().right())
            problems << style + QStringLiteral(" overlaps the label before it");
        if (!chart.chart()->geometry().contains(box))
            problems << style + QStringLiteral(" outside the chart");
        labels.push_back(box);
    }
    for (QGraphicsItem* item : chart.scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (text && text->isVisible()
            && (text->toPlainText().contains(QLatin1String("...")) || text->toPlainText().contains(QChar(0x2026))))
            problems << text->toPlainText() + QStringLiteral(" is cut");
    }
    return problems;
}

ExperimentResult twoModelResult()
{
    ExperimentResult result;
    for (const char* model : { "tiny_mlp", "small_resnet" }) {
        GroupResult group;
        group.model = model;
        group.mode = "eager";
        group.noiseFloorPct = std::string(model) == "tiny_mlp" ? 1.5 : 0.8;
        result.groups.push_back(group);
    }
    const auto cell = [&](const char* model, const char* style, std::optional<Interval> overhead) {
        CellResult c;
        c.model = model;
        c.mode = "eager";
        c.style = style;
        c.overheadPct = overhead;
        result.cells.push_back(c);
    };
    cell("tiny_mlp", "none", std::nullopt);
    cell("tiny_mlp", "item", Interval { 42.0, 38.5, 46.0 });
    cell("tiny_mlp", "gpu_accumulate", Interval { 3.0, 1.0, 5.5 });
    cell("tiny_mlp", "aa_control", Interval { 0.4, -1.1, 1.5 });
    cell("small_resnet", "none", std::nullopt);
    cell("small_resnet", "item", Interval { 12.0, 10.0, 14.5 });
    cell("small_resnet", "gpu_accumulate", std::nullopt); // too few rounds: no interval
    cell("small_resnet", "aa_control", Interval { -0.2, -0.8, 0.5 });
    return result;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void downsampleLeavesSmallInputUnchanged()
    {
        const std::vector<float> values { 3, 1, 4, 1, 5, 9, 2, 6 };
        const std::vector<SamplePoint> points = minMaxDownsample(values, 4, 10);
        QCOMPARE(points.size(), values.size());
        for (size_t i = 0; i < values.size(); ++i) {
            QCOMPARE(points[i].x, 10.0 + double(i));
            QCOMPARE(points[i].y, double(values[i]));
        }
    }

    void downsampleKeepsMinAndMaxOfEachBucketInOrder()
    {
        std::vector<float> values(10000);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = 10.0f + float(std::sin(double(i) * 0.37)) + float(i % 7) * 0.1f;
        values[5437] = 200; // one hiccup
        values[8123] = -5;
        const size_t buckets = 100;
        const std::vector<size_t> kept = minMaxIndices(values.data(), values.size(), buckets);
        QVERIFY(kept.size() <= 2 * buckets);
        QVERIFY(std::is_sorted(kept.begin(), kept.end()));
        QVERIFY(std::adjacent_find(kept.begin(), kept.end()) == kept.end());
        QVERIFY(std::find(kept.begin(), kept.end(), size_t(5437)) != kept.end());
        QVERIFY(std::find(kept.begin(), kept.end(), size_t(8123)) != kept.end());
        for (size_t b = 0; b < buckets; ++b) {
            const size_t begin = b * values.size() / buckets;
            const size_t end = (b + 1) * values.size() / buckets;
            const auto lowest
                = size_t(std::min_element(values.begin() + long(begin), values.begin() + long(end)) - values.begin());
            const auto highest
                = size_t(std::max_element(values.begin() + long(begin), values.begin() + long(end)) - values.begin());
            QVERIFY2(std::find(kept.begin(), kept.end(), lowest) != kept.end(), qPrintable(QString::number(b)));
            QVERIFY2(std::find(kept.begin(), kept.end(), highest) != kept.end(), qPrintable(QString::number(b)));
            const auto inBucket
                = std::count_if(kept.begin(), kept.end(), [&](size_t i) { return i >= begin && i < end; });
            QCOMPARE(inBucket, 2);
        }
    }

    // The step chart's columns: equal spans of the step axis, not of the step count, so a run whose
    // timed steps come in blocks gets columns as wide as the pixels they cover (spans of the count
    // put several columns in one pixel over a block, drawn over each other); a gap ends a column
    // and no column spans it; each column keeps its slowest step.
    void maxBinsSpanTheXAxisAndStopAtGaps()
    {
        std::vector<double> x;
        std::vector<float> values;
        for (int block = 0; block < 10; ++block) {
            for (int s = 0; s < 1000; ++s) {
                x.push_back(double(block * 4000 + s));
                values.push_back(float((s * 37) % 101));
            }
        }
        values[2500] = 1000; // one slow step
        size_t gaps = 0;
        const size_t buckets = 300;
        const std::vector<XBin> bins = maxBinsOverX(x.data(), values.data(), x.size(), buckets, gaps);
        QCOMPARE(gaps, size_t(9));
        QVERIFY(bins.size() <= buckets + gaps);
        const double span = x.back() - x.front() + 1;
        for (size_t k = 0; k < bins.size(); ++k) {
            const XBin& b = bins[k];
            QVERIFY(b.first <= b.highest && b.highest <= b.last);
            // Every point of a bin in one bucket of the x axis, and no bin across a gap.
            QCOMPARE(size_t(x[b.first] / span * buckets), size_t(x[b.last] / span * buckets));
            QVERIFY(x[b.last] - x[b.first] == double(b.last - b.first));
            for (size_t i = b.first; i <= b.last; ++i)
                QVERIFY(values[i] <= values[b.highest]);
            if (k > 0)
                QCOMPARE(b.first, bins[k - 1].last + 1);
        }
        QCOMPARE(bins.front().first, size_t(0));
        QCOMPARE(bins.back().last, x.size() - 1);
        const auto slow = std::find_if(bins.begin(), bins.end(), [](const XBin& b) { return b.highest == 2500; });
        QVERIFY(slow != bins.end());
        // 1,000 steps a block in a 40,000-step axis of 300 buckets: about 7.5 bins a block, not 30.
        QVERIFY2(bins.size() <= 10 * 9, qPrintable(QString::number(bins.size())));
    }

    void downsampleWithXValuesKeepsSpikesAndGaps()
    {
        std::vector<SamplePoint> points;
        for (int i = 0; i < 3000; ++i) {
            if (i >= 1000 && i < 2000)
                continue; // a gap in x
            points.push_back({ double(i), i == 2500 ? 99.0 : 1.0 + (i % 3) });
        }
        const std::vector<SamplePoint> kept = minMaxDownsample(points, 50);
        QVERIFY(kept.size() <= 100);
        QVERIFY(std::is_sorted(kept.begin(), kept.end(), [](auto& a, auto& b) { return a.x < b.x; }));
        QVERIFY(std::any_of(kept.begin(), kept.end(), [](auto& p) { return p.x == 2500 && p.y == 99; }));
        QVERIFY(std::none_of(kept.begin(), kept.end(), [](auto& p) { return p.x >= 1000 && p.x < 2000; }));
        QCOMPARE(minMaxDownsample(points, 5000).size(), points.size());
    }

    void stepChartShowsOneDownsampledSeriesPerStyleOfTheGroup()
    {
        RunHistory history;
        history.reset({ plan(0, "tiny_mlp", "none"), plan(1, "tiny_mlp", "item"), plan(2, "tiny_mlp", "aa_control"),
                          plan(3, "small_resnet", "none") },
            7);
        std::vector<StepRecord> records;
        for (uint32_t i = 0; i < 5000; ++i) {
            records.push_back(record(0, int(i / 50), i % 50, 2.0 + (i % 5) * 0.01));
            records.push_back(record(1, int(i / 50), i % 50, i == 2500 ? 200.0 : 3.0 + (i % 7) * 0.01));
            records.push_back(record(2, int(i / 50), i % 50, 2.0 + (i % 3) * 0.01));
            records.push_back(record(3, int(i / 50), i % 50, 9.0));
        }
        QCOMPARE(history.append(records), records.size());

        StepChart chart;
        chart.setHistory(&history);
        chart.setGroup(GroupKey { "tiny_mlp", "eager" }, QStringLiteral("tiny_mlp (eager)"));
        showAt(chart, QSize(900, 500));
        chart.refresh();

        QCOMPARE(chart.chart()->title(), QStringLiteral("Step time — tiny_mlp (eager)"));
        const QList<QLineSeries*> lines = seriesOf<QLineSeries>(chart);
        QCOMPARE(lines.size(), 3);
        QStringList names;
        for (QLineSeries* s : lines)
            names.append(s->name());
        names.sort();
        QCOMPARE(names, QStringList({ "aa_control", "item", "none" }));
        QVERIFY(chart.placeholder().isEmpty());

        const int plotWidth = int(chart.chart()->plotArea().width());
        QVERIFY(plotWidth > 100);
        for (QLineSeries* s : lines) {
            QVERIFY2(s->count() > plotWidth / 2, qPrintable(s->name()));
            QVERIFY2(s->count() <= 2 * plotWidth, qPrintable(s->name()));
        }
        // The hiccup survives downsampling, but the axis is not stretched to it.
        const QList<QPointF> item = lineNamed(chart, "item")->points();
        QVERIFY(std::any_of(item.begin(), item.end(), [](const QPointF& p) { return p.x() == 2500 && p.y() == 200; }));
        auto* axisY = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
        QVERIFY(axisY->max() < 20);
        QVERIFY(axisY->max() >= 3.06);
        QCOMPARE(axisY->titleText(), QStringLiteral("host step time (ms)"));

        const QPen baseline = lineNamed(chart, "none")->pen();
        const QPen other = lineNamed(chart, "item")->pen();
        QVERIFY(baseline.widthF() > other.widthF() + 0.5);
        QVERIFY(baseline.color().lightness() < 60);
        QVERIFY(other.color().lightness() > baseline.color().lightness());
        QVERIFY(lineNamed(chart, "aa_control")->pen().widthF() < baseline.widthF());

        // Nothing new: nothing redrawn. New steps: the lines grow.
        lineNamed(chart, "none")->clear();
        chart.refresh();
        QCOMPARE(lineNamed(chart, "none")->count(), 0);
        history.append({ record(0, 100, 0, 2.5) });
        chart.refresh();
        QVERIFY(lineNamed(chart, "none")->count() > 0);
        QCOMPARE(lineNamed(chart, "none")->points().last().x(), 5000.0);
        screenshot(chart, "step");

        chart.setGroup(GroupKey { "small_resnet", "eager" }, QStringLiteral("small_resnet (eager)"));
        chart.refresh();
        QCOMPARE(seriesOf<QLineSeries>(chart).size(), 1);
        QCOMPARE(seriesOf<QLineSeries>(chart).first()->name(), QStringLiteral("none"));
        QVERIFY(seriesOf<QLineSeries>(chart).first()->count() <= 2 * plotWidth);
    }

    // The palette is sized to the catalog: a style added beyond it would share another's colour. Told
    // apart at a glance, not only by their RGB values: far apart in CIELAB, the control's grey included.
    void phaseChartDrawsNoWaitColourWhereNoStepWaited()
    {
        // 3,000 steps on a 900-pixel chart, every tenth with a backward() five times as long and no
        // sync wait anywhere: the spikes, a pixel wide, are the backward band's, never the wait band's.
        std::vector<double> step;
        std::vector<float> f, b, o, total;
        for (int i = 0; i < 3000; ++i) {
            step.push_back(double(i));
            f.push_back(1.0f);
            b.push_back(i % 10 == 0 ? 8.0f : 1.5f);
            o.push_back(0.5f);
            total.push_back(f.back() + b.back() + o.back());
        }
        PhaseStepChart chart;
        chart.setColumns({ &step, &f, &b, &o, &total, nullptr });
        showAt(chart, QSize(900, 500));
        chart.refresh();
        QCOMPARE(chart.lastDrawnStep(), 2999.0);
        const QImage image = chart.grab().toImage();
        const QRect plot = chart.mapFromScene(chart.chart()->plotArea()).boundingRect().adjusted(2, 2, -2, -2);
        int waitColoured = 0;
        int backwardColoured = 0;
        for (int y = plot.top(); y <= plot.bottom(); ++y) {
            for (int x = plot.left(); x <= plot.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                waitColoured += c.red() > 150 && c.green() < 120 && c.blue() < 120 ? 1 : 0;
                backwardColoured += c.red() > 200 && c.green() > 120 && c.green() < 200 && c.blue() < 150 ? 1 : 0;
            }
        }
        QVERIFY(backwardColoured > 0); // the chart drew its bands
        QCOMPARE(waitColoured, 0);
        screenshot(chart, "phase-spikes");
    }

    // Steps only counted (the blocks between calibration blocks) are a gap: no band and no GPU
    // point between the timed steps on either side, and the title says what the gap is.
    void phaseChartLeavesStepsThatWereNotTimedAGap()
    {
        std::vector<double> step;
        std::vector<float> f, b, o, total, gpu;
        for (int i = 0; i < 500; ++i) {
            if (i >= 100 && i < 400)
                continue; // counted, not timed
            step.push_back(double(i));
            f.push_back(1.0f);
            b.push_back(1.5f);
            o.push_back(0.5f);
            total.push_back(3.0f);
            gpu.push_back(i < 100 ? 2.0f : 4.0f);
        }
        PhaseStepChart chart;
        chart.setColumns({ &step, &f, &b, &o, &total, &gpu });
        showAt(chart, QSize(900, 500));
        chart.refresh();
        QCOMPARE(chart.lastDrawnStep(), 499.0);
        QVERIFY2(chart.gapNote().contains(QStringLiteral("200 of these 500 steps timed")), qPrintable(chart.gapNote()));
        const QImage image = chart.grab().toImage();
        const QRectF plotArea = chart.chart()->plotArea();
        const QRect plot = chart.mapFromScene(plotArea).boundingRect().adjusted(2, 2, -2, -2);
        // The steps 150 to 350 in pixels: the middle of the gap, away from its edges.
        const auto column = [&](double s) { return plot.left() + int((s / 500.0) * plot.width()); };
        int inked = 0;
        int inkedOutside = 0;
        for (int y = plot.top(); y <= plot.bottom() - 3; ++y) {
            for (int x = plot.left(); x <= plot.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                const bool ink = c.saturation() > 60 || c.value() < 90;
                if (x > column(150) && x < column(350))
                    inked += ink ? 1 : 0;
                else if (x < column(80))
                    inkedOutside += ink ? 1 : 0;
            }
        }
        QVERIFY(inkedOutside > 0); // the timed steps are drawn
        QCOMPARE(inked, 0);
        QCOMPARE(chart.drawnGpuPoints() > 0, true);
        screenshot(chart, "phase-gap");
    }

    // The tick labels Qt draws for an A/B that narrows around zero: round numbers, never the sum
    // of inexact steps ("-5.55112e-17" where 0 belongs).
    void abTaxChartLabelsTicksAsRoundNumbers()
    {
        AbTaxChart chart;
        std::vector<AbTaxChart::Point> points;
        for (int r = 1; r <= 12; ++r) {
            const double half = 0.3 / r;
            points.push_back({ r * 2, Interval { 0.02, -0.28 + 0.02 * r - half, 0.02 + half }, std::nullopt });
        }
        chart.setPoints(points, QStringLiteral("an added loss.item()"), QString());
        showAt(chart, QSize(700, 420));
        QStringList labels;
        for (QGraphicsItem* item : chart.chart()->scene()->items()) {
            if (const auto* text = dynamic_cast<QGraphicsTextItem*>(item))
                labels << text->toPlainText();
        }
        const QRegularExpression number(QStringLiteral("^[-+−]?[0-9.]+(e[-+][0-9]+)?$"));
        QStringList ticks = labels.filter(number);
        QVERIFY2(ticks.size() >= 4, qPrintable(labels.join(QStringLiteral(" | "))));
        QVERIFY2(ticks.filter(QStringLiteral("e")).isEmpty(), qPrintable(ticks.join(QStringLiteral(" | "))));
        QVERIFY2(!ticks.contains(QStringLiteral("-0")) && !ticks.contains(QStringLiteral("-0.0")),
            qPrintable(ticks.join(QStringLiteral(" | "))));
        screenshot(chart, "ab-ticks");
    }

    // A fast loop's steps, noisy and with spikes: one point per three pixels at most (each the
    // slowest of its steps), so that Qt's area series, whose time grows with the square of its
    // points, paints in milliseconds (min and max per pixel held the window for seconds a frame).
    void phaseChartOfAFastNoisyLoopDrawsAPointPerThreePixels()
    {
        std::vector<double> step;
        std::vector<float> f, b, o, total;
        uint32_t seed = 1;
        auto rnd = [&] {
            seed = seed * 1664525u + 1013904223u;
            return float(seed >> 8) / float(1 << 24);
        };
        for (int i = 0; i < 100000; ++i) {
            step.push_back(double(i));
            f.push_back(0.01f + 0.01f * rnd());
            b.push_back(0.015f + 0.02f * rnd());
            o.push_back(0.005f + 0.005f * rnd());
            total.push_back(f.back() + b.back() + o.back() + (rnd() < 0.02f ? 0.5f * rnd() : 0.0f));
        }
        total[5000] = 1000.0f; // one step that waited a second
        PhaseStepChart chart;
        chart.setColumns({ &step, &f, &b, &o, &total, nullptr });
        showAt(chart, QSize(1400, 500));
        chart.refresh();
        chart.grab();
        const int plotWidth = int(chart.chart()->plotArea().width());
        QVERIFY2(chart.drawnPoints() <= plotWidth / 3 + 2,
            qPrintable(QStringLiteral("%1 points on %2 pixels").arg(chart.drawnPoints()).arg(plotWidth)));
        QCOMPARE(chart.lastDrawnStep(), 99999.0);
        QVERIFY2(
            chart.gapNote().contains(QStringLiteral("each point the slowest of about")), qPrintable(chart.gapNote()));
        screenshot(chart, "phase-fast-loop");
    }

    // With no site yet the wait axis is in milliseconds from 0 to 1, not nanoseconds to 0.001;
    // with sites, its unit follows the largest bar.
    void siteChartWithoutSitesHasAnAxisInMilliseconds()
    {
        SiteWaitChart chart;
        chart.setSites({}, QStringLiteral("No sync in the steps so far."));
        const auto* axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->titleText(), QStringLiteral("ms per step"));
        QCOMPARE(axis->max(), 1.0);
        chart.setSites({ { QStringLiteral("train.py:12 item"), QStringLiteral("train.py:12"), 0.0004 } }, QString());
        QCOMPARE(axis->titleText(), QStringLiteral("µs per step"));
    }

    void everyCatalogStyleHasAColourOfItsOwn()
    {
        QStringList styles { QLatin1String(aaControlStyle()) };
        for (const StyleInfo& style : styleCatalog())
            styles << QString::fromStdString(style.name);
        QStringList tooClose;
        for (qsizetype a = 0; a < styles.size(); ++a) {
            for (qsizetype b = a + 1; b < styles.size(); ++b) {
                const double distance = labDistance(styleColor(styles[a]), styleColor(styles[b]));
                if (distance < 30)
                    tooClose << QStringLiteral("%1 and %2 (%3)").arg(styles[a], styles[b]).arg(distance, 0, 'f', 1);
            }
        }
        QVERIFY2(tooClose.isEmpty(), qPrintable(tooClose.join(QStringLiteral(", "))));
    }

    void stepChartDrawsEveryStyleOfTheCatalog()
    {
        std::vector<CellPlan> cells;
        for (const StyleInfo& style : styleCatalog())
            cells.push_back(cellPlan(uint32_t(cells.size()), { { "tiny_mlp", "eager" }, style.name }));
        cells.push_back(cellPlan(uint32_t(cells.size()), { { "tiny_mlp", "eager" }, aaControlStyle() }));
        RunHistory history;
        history.reset(cells, 7);
        std::vector<StepRecord> records;
        for (uint32_t c = 0; c < cells.size(); ++c) {
            for (uint32_t i = 0; i < 400; ++i)
                records.push_back(record(c, int(i / 50), i % 50, 2.0 + c * 0.3 + (i % 5) * 0.05));
        }
        history.append(records);
        StepChart chart;
        chart.setHistory(&history);
        chart.setGroup(GroupKey { "tiny_mlp", "eager" }, QStringLiteral("tiny_mlp (eager)"));
        showAt(chart, QSize(900, 320));
        chart.refresh();
        const QList<QLineSeries*> lines = seriesOf<QLineSeries>(chart);
        QCOMPARE(lines.size(), int(cells.size()));
        QCOMPARE(lines.first()->name(), QStringLiteral("none")); // heads the legend
        // Every name whole, down to the step dock's least height.
        QStringList problems = legendProblems(chart);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
        screenshot(chart, "step-all");
        chart.resize(900, 240);
        QCoreApplication::processEvents();
        problems = legendProblems(chart);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
        screenshot(chart, "step-all-short");
    }

    void queueChartMarksSyncPointsOfItemEveryN()
    {
        ExperimentConfig config;
        ModelSpec model;
        model.name = "tiny_mlp";
        model.stepsPerBlock = 12;
        config.models = { model };
        config.styles = { StyleSpec { "none", 0 }, StyleSpec { "item_every_n", 5 } };

        RunHistory history;
        history.reset({ plan(0, "tiny_mlp", "none"), plan(1, "tiny_mlp", "item_every_n") }, 7);
        std::vector<StepRecord> records;
        for (int round = 0; round < 2; ++round) {
            for (uint32_t step = 0; step < 12; ++step) {
                const bool synced = (step + 1) % 5 == 0;
                records.push_back(record(1, round, step, 2.0, synced ? 0.2f : 8.0f + float(step), synced ? 0 : 4));
                records.push_back(record(0, round, step, 2.0)); // a CPU-like cell: no CUDA events
            }
        }
        history.append(records);

        QueueChart chart;
        chart.setHistory(&history, &config);
        chart.setCell(1);
        showAt(chart, QSize(900, 500));
        chart.refresh();

        QCOMPARE(chart.chart()->title(), QStringLiteral("Queue — tiny_mlp/eager/item_every_n"));
        QVERIFY(chart.placeholder().isEmpty());
        const QList<QScatterSeries*> scatter = seriesOf<QScatterSeries>(chart);
        QCOMPARE(scatter.size(), 1);
        QList<double> syncSteps;
        for (const QPointF& p : scatter.first()->points())
            syncSteps.append(p.x());
        // Step in block 4 and 9 of each 12-step block; the count restarts with every block.
        QCOMPARE(syncSteps, QList<double>({ 4, 9, 16, 21 }));
        for (const QPointF& p : scatter.first()->points())
            QCOMPARE(p.y(), double(0.2f)); // on the lag line, where the queue has drained
        QLineSeries* lag = lineNamed(chart, chart.chart()->series().at(1)->name());
        QVERIFY(lag);
        QCOMPARE(lag->count(), 24); // fewer than two per pixel: every step
        QCOMPARE(lineNamed(chart, "queued steps")->count(), 24);
        screenshot(chart, "queue");

        chart.setCell(0);
        chart.refresh();
        QCOMPARE(
            chart.placeholder(), QStringLiteral("No GPU queue on this device: lag and queue depth need CUDA events."));
        QCOMPARE(scatter.first()->count(), 0);
        QCOMPARE(lineNamed(chart, "queued steps")->count(), 0);
        screenshot(chart, "queue-cpu");

        chart.setCell(-1);
        chart.refresh();
        QCOMPARE(chart.shownCell(), history.lastCell());
    }

    void queueChartShowsTheLastStepsOfALongCell()
    {
        ExperimentConfig config;
        config.stepsPerBlock = 50;
        config.styles = { StyleSpec { "item", 0 } };
        RunHistory history;
        history.reset({ plan(0, "tiny_mlp", "item") }, 7);
        std::vector<StepRecord> records;
        for (uint32_t i = 0; i < 10000; ++i)
            records.push_back(record(0, int(i / 50), i % 50, 2.0, 0.1f + float(i % 9) * 0.01f, int32_t(i % 2)));
        history.append(records);
        QueueChart chart;
        chart.setHistory(&history, &config);
        showAt(chart, QSize(700, 400));
        chart.refresh();
        QCOMPARE(chart.shownCell(), 0);
        auto* axisX = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).first());
        QCOMPARE(axisX->min(), double(10000 - QueueChart::windowSteps));
        QCOMPARE(axisX->max(), 9999.0);
        const int plotWidth = int(chart.chart()->plotArea().width());
        QVERIFY(lineNamed(chart, "queued steps")->count() <= 2 * plotWidth);
        // item syncs every step: one marker per slot of the plot, every slot marked.
        const int markers = seriesOf<QScatterSeries>(chart).first()->count();
        QVERIFY(markers <= plotWidth / QueueChart::markerSlotPixels + 1);
        QVERIFY(markers >= plotWidth / QueueChart::markerSlotPixels - 1);
    }

    void overheadChartDrawsBarsWhiskersAndNoiseBands()
    {
        OverheadChart chart;
        chart.setResult(twoModelResult());
        showAt(chart, QSize(1200, 700));

        QCOMPARE(chart.styles(), QStringList({ "aa_control", "item", "gpu_accumulate" }));
        const QList<QBarSeries*> bars = seriesOf<QBarSeries>(chart);
        QCOMPARE(bars.size(), 1);
        const QList<QBarSet*> sets = bars.first()->barSets();
        QCOMPARE(sets.size(), 2);
        QCOMPARE(sets[0]->label(), QStringLiteral("tiny_mlp"));
        QCOMPARE(sets[1]->label(), QStringLiteral("small_resnet"));
        QCOMPARE(sets[0]->at(0), 0.4);
        QCOMPARE(sets[0]->at(1), 42.0);
        QCOMPARE(sets[0]->at(2), 3.0);
        QCOMPARE(sets[1]->at(0), -0.2);
        QCOMPARE(sets[1]->at(1), 12.0);
        QCOMPARE(sets[1]->at(2), 0.0); // no interval: no bar
        QCOMPARE(bars.first()->barWidth(), OverheadChart::barWidth);

        // Two groups share barWidth of each category, side by side: centres at +-barWidth/4.
        const auto whisker = [&](const QString& group, const QString& style) -> QLineSeries* {
            for (QLineSeries* s : seriesOf<QLineSeries>(chart)) {
                if (s->objectName() == QStringLiteral("ci:%1:%2").arg(group, style))
                    return s;
            }
            return nullptr;
        };
        const auto checkWhisker = [&](const char* group, const char* style, double x, double low, double high) {
            QLineSeries* s = whisker(QLatin1String(group), QLatin1String(style));
            QVERIFY2(s, style);
            double top = -1e9;
            double bottom = 1e9;
            for (const QPointF& p : s->points()) {
                QVERIFY(std::abs(p.x() - x) < 0.1);
                top = std::max(top, p.y());
                bottom = std::min(bottom, p.y());
            }
            QVERIFY(s->points().contains(QPointF(x, low)));
            QVERIFY(s->points().contains(QPointF(x, high)));
            QCOMPARE(bottom, low);
            QCOMPARE(top, high);
        };
        const double quarter = OverheadChart::barWidth / 4;
        checkWhisker("tiny_mlp", "aa_control", 0 - quarter, -1.1, 1.5);
        checkWhisker("tiny_mlp", "item", 1 - quarter, 38.5, 46.0);
        checkWhisker("tiny_mlp", "gpu_accumulate", 2 - quarter, 1.0, 5.5);
        checkWhisker("small_resnet", "aa_control", 0 + quarter, -0.8, 0.5);
        checkWhisker("small_resnet", "item", 1 + quarter, 10.0, 14.5);
        QVERIFY(!whisker("small_resnet", "gpu_accumulate"));

        const QList<QAreaSeries*> bands = seriesOf<QAreaSeries>(chart);
        QCOMPARE(bands.size(), 2);
        QCOMPARE(bands[0]->name(), QStringLiteral("A/A noise floor tiny_mlp"));
        QCOMPARE(bands[0]->upperSeries()->at(0).y(), 1.5);
        QCOMPARE(bands[0]->lowerSeries()->at(0).y(), -1.5);
        QCOMPARE(bands[1]->upperSeries()->at(1).y(), 0.8);
        QCOMPARE(bands[1]->upperSeries()->at(0).x(), -0.5);
        QCOMPARE(bands[1]->upperSeries()->at(1).x(), 2.5);

        auto* axisY = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
        QVERIFY(axisY->min() <= -1.5);
        QVERIFY(axisY->max() >= 46.0);
        QCOMPARE(axisY->titleText(), QStringLiteral("overhead vs none (%)"));
        QVERIFY(chart.placeholder().isEmpty());
        screenshot(chart, "overhead");

        OverheadChart empty;
        ExperimentResult noIntervals = twoModelResult();
        for (CellResult& c : noIntervals.cells)
            c.overheadPct.reset();
        empty.setResult(noIntervals);
        QVERIFY(!empty.placeholder().isEmpty());
        QVERIFY(seriesOf<QLineSeries>(empty).size() == 1); // the zero line only: no whiskers
    }

    void overheadChartRotatesLongLabelsAndNamesModes()
    {
        ExperimentResult result = twoModelResult();
        for (const char* style : { "progress_bar_postfix_every_n", "writer_flush_every_step", "metrics_item_each",
                 "metrics_stacked", "deferred_async", "print_every_step", "progress_bar" }) {
            CellResult c;
            c.model = "tiny_mlp";
            c.mode = "cuda_graph";
            c.style = style;
            c.overheadPct = Interval { 5, 4, 6 };
            result.cells.push_back(c);
        }
        OverheadChart chart;
        chart.setResult(result);
        showAt(chart, QSize(1200, 700));
        const QList<QBarSet*> sets = seriesOf<QBarSeries>(chart).first()->barSets();
        QCOMPARE(sets.size(), 3);
        QCOMPARE(sets[2]->label(), QStringLiteral("tiny_mlp (cuda_graph)"));
        auto* axisX = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).first());
        QVERIFY(axisX);
        // Long names are broken into lines after underscores, so at full width they need no rotation...
        QTRY_VERIFY(axisX->categories().join(QString()).contains(QStringLiteral("<br>")));
        QCOMPARE(axisX->labelsAngle(), 0);
        for (int i = 0; i < chart.styles().size(); ++i)
            QCOMPARE(QString(axisX->categories()[i]).remove(QStringLiteral("<br>")), chart.styles()[i]);
        screenshot(chart, "overhead-many");
        // ...and in a narrow dock they turn rather than being cut.
        showAt(chart, QSize(420, 500));
        QTRY_VERIFY(axisX->labelsAngle() != 0);
    }

    // Qt Charts cuts a label wider than its category ("progr...", "gpu accu..."): in a dock as
    // narrow as its minimum, at the window's usual sizes and at the export's, each is drawn whole.
    void overheadChartDrawsEveryLabelWhole()
    {
        const auto seed = loadResultsFile(SYNCTAX_TEST_DATA "/results/h200/seed-app.json");
        QVERIFY(seed.result.has_value());
        ExperimentResult everyStyle = twoModelResult();
        for (const StyleInfo& info : styleCatalog()) {
            CellResult c;
            c.model = "tiny_mlp";
            c.mode = "eager";
            c.style = info.name;
            c.overheadPct = Interval { 5, 4, 6 };
            everyStyle.cells.push_back(c);
        }
        for (const ExperimentResult* result :
            std::initializer_list<const ExperimentResult*> { &*seed.result, &everyStyle }) {
            for (const QSize size : { QSize(560, 340), QSize(640, 420), QSize(900, 520), QSize(1200, 700) }) {
                OverheadChart chart;
                chart.setResult(*result);
                showAt(chart, size);
                QTRY_VERIFY2(labelProblems(chart).isEmpty(),
                    qPrintable(QStringLiteral("%1x%2, %3 styles: %4")
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(chart.styles().size())
                                   .arg(labelProblems(chart).join(QStringLiteral(", ")))));
            }
        }
    }

    void contextMenuOffersTheThreeExports()
    {
        OverheadChart chart;
        chart.setResult(twoModelResult());
        showAt(chart, QSize(600, 400));
        QStringList offered;
        QTimer::singleShot(0, &chart, [&offered] {
            if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
                for (QAction* action : menu->actions())
                    offered.append(action->text());
                menu->close();
            }
        });
        QContextMenuEvent event(QContextMenuEvent::Mouse, QPoint(100, 100), chart.mapToGlobal(QPoint(100, 100)));
        QApplication::sendEvent(chart.viewport(), &event);
        QCOMPARE(offered, QStringList({ "Export PNG…", "Export SVG…", "Export PDF…" }));
    }

    void exportsPngSvgAndPdf()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        OverheadChart overhead;
        overhead.setResult(twoModelResult());
        RunHistory history;
        history.reset({ plan(0, "tiny_mlp", "none") }, 7);
        std::vector<StepRecord> records;
        for (uint32_t i = 0; i < 300; ++i)
            records.push_back(record(0, int(i / 50), i % 50, 2.0 + (i % 4) * 0.1, -1, -1));
        history.append(records);
        StepChart step;
        step.setHistory(&history);
        step.setGroup(GroupKey { "tiny_mlp", "eager" }, QStringLiteral("tiny_mlp"));
        QueueChart queue;
        queue.setHistory(&history, nullptr);

        const QList<std::pair<const char*, ChartPanel*>> charts { { "overhead", &overhead }, { "step", &step },
            { "queue", &queue } };
        for (const auto& [name, panel] : charts) {
            showAt(*panel, QSize(640, 400));
            if (auto* s = qobject_cast<StepChart*>(panel))
                s->refresh();
            if (auto* q = qobject_cast<QueueChart*>(panel))
                q->refresh();
            const QSizeF onScreen = panel->chart()->size();
            const QString base = dir.filePath(QLatin1String(name));
            QVERIFY(panel->exportPng(base + ".png", QSize(1200, 700), 2.0));
            QVERIFY(panel->exportSvg(base + ".svg", QSize(1200, 700)));
            QVERIFY(panel->exportPdf(base + ".pdf"));
            QCOMPARE(panel->chart()->size(), onScreen);
            QCOMPARE(panel->chart()->geometry(), QRectF(QPointF(0, 0), onScreen));
            screenshot(*panel, qPrintable(QStringLiteral("after-export-%1").arg(QLatin1String(name))));

            QCOMPARE(head(base + ".png", 4), QByteArray("\x89PNG"));
            const QByteArray svg = head(base + ".svg", 200);
            QVERIFY2(svg.startsWith("<?xml") || svg.startsWith("<svg"), svg.constData());
            QCOMPARE(head(base + ".pdf", 4), QByteArray("%PDF"));
            QVERIFY(QFileInfo(base + ".png").size() > 10000);
            QVERIFY(QFileInfo(base + ".svg").size() > 2000);
            QVERIFY(QFileInfo(base + ".pdf").size() > 1000);
            const QImage png(base + ".png");
            QCOMPARE(png.size(), QSize(2400, 1400));

            const QByteArray keep = qgetenv("SYNCTAX_SCREENSHOT_DIR");
            if (!keep.isEmpty()) {
                for (const char* ext : { ".png", ".svg", ".pdf" }) {
                    const QString target = QString::fromLocal8Bit(keep) + "/chart-export-" + name + ext;
                    QFile::remove(target);
                    QFile::copy(base + ext, target);
                }
            }
        }
        QCOMPARE(
            queue.placeholder(), QStringLiteral("No GPU queue on this device: lag and queue depth need CUDA events."));
        QVERIFY(!overhead.exportPng(dir.filePath("missing-folder/x.png"), QSize(100, 100), 1));
        QTest::ignoreMessage(QtWarningMsg, "QPainter::begin(): Returned false");
        QVERIFY(!overhead.exportPdf(dir.filePath("missing-folder/x.pdf")));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
