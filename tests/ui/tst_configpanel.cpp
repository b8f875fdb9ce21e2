#include "core/config/configloader.h"
#include "core/config/presets.h"
#include "ui/configpanel.h"

#include "testfiles.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>

#include <QTest>

using namespace synctax;

namespace {

QString modesText(const std::vector<Mode>& modes)
{
    QStringList names;
    for (Mode m : modes)
        names << QString::fromStdString(toString(m));
    return names.join(QLatin1Char(','));
}

// Every field that differs, as "field: actual != expected"; empty when the configs are equal.
QString sweepText(const std::optional<SweepSpec>& sweep)
{
    if (!sweep)
        return QStringLiteral("none");
    QStringList parts;
    for (const int64_t us : sweep->hostWorkUs)
        parts << QStringLiteral("h%1").arg(us);
    for (const int64_t batch : sweep->batch)
        parts << QStringLiteral("b%1").arg(batch);
    return parts.join(QLatin1Char(' '));
}

QStringList differences(const ExperimentConfig& a, const ExperimentConfig& e)
{
    QStringList diffs;
    const auto check = [&](const char* field, auto actual, auto expected) {
        if (!(actual == expected))
            diffs << QStringLiteral("%1: %2 != %3").arg(QLatin1String(field)).arg(actual).arg(expected);
    };
    const auto str = [](const std::string& s) { return QString::fromStdString(s); };
    check("version", a.version, e.version);
    check("name", str(a.name), str(e.name));
    check("description", str(a.description), str(e.description));
    check("device", str(a.device), str(e.device));
    check("seed", qulonglong(a.seed), qulonglong(e.seed));
    check("stepsPerBlock", qlonglong(a.stepsPerBlock), qlonglong(e.stepsPerBlock));
    check("blocks", qlonglong(a.blocks), qlonglong(e.blocks));
    check("minBlocks", qlonglong(a.minBlocks), qlonglong(e.minBlocks));
    check("targetCiPp", a.targetCiPp, e.targetCiPp);
    check("timeBudgetS", a.timeBudgetS, e.timeBudgetS);
    check("warmupMinSteps", qlonglong(a.warmupMinSteps), qlonglong(e.warmupMinSteps));
    check("warmupMaxSteps", qlonglong(a.warmupMaxSteps), qlonglong(e.warmupMaxSteps));
    check("hostWorkUs", qlonglong(a.hostWorkUs), qlonglong(e.hostWorkUs));
    check("optimizer", str(toString(a.optimizer)), str(toString(e.optimizer)));
    check("learningRate", a.learningRate, e.learningRate);
    check("gpuEvents", int(a.gpuEvents), int(e.gpuEvents));
    check("observerControl", int(a.observerControl), int(e.observerControl));
    check("sink.kind", int(a.sink.kind), int(e.sink.kind));
    check("sink.path", str(a.sink.path), str(e.sink.path));
    check("modes", modesText(a.modes), modesText(e.modes));
    check("sweep", sweepText(a.sweep), sweepText(e.sweep));
    check("models.size", int(a.models.size()), int(e.models.size()));
    for (size_t i = 0; i < std::min(a.models.size(), e.models.size()); ++i) {
        const ModelSpec& am = a.models[i];
        const ModelSpec& em = e.models[i];
        check("model.name", str(am.name), str(em.name));
        check("model.batch", qlonglong(am.batch), qlonglong(em.batch));
        check("model.width", qlonglong(am.width), qlonglong(em.width));
        check("model.inputSize", qlonglong(am.inputSize), qlonglong(em.inputSize));
        check("model.classes", qlonglong(am.classes), qlonglong(em.classes));
        check("model.stepsPerBlock", qlonglong(am.stepsPerBlock), qlonglong(em.stepsPerBlock));
        check("model.blocks", qlonglong(am.blocks), qlonglong(em.blocks));
        check("model.hostWorkUs", qlonglong(am.hostWorkUs), qlonglong(em.hostWorkUs));
        check("model.timeBudgetS", am.timeBudgetS, em.timeBudgetS);
        check("model.sweep", sweepText(am.sweep), sweepText(em.sweep));
    }
    check("styles.size", int(a.styles.size()), int(e.styles.size()));
    for (size_t i = 0; i < std::min(a.styles.size(), e.styles.size()); ++i) {
        check("style.name", str(a.styles[i].name), str(e.styles[i].name));
        check("style.n", qlonglong(a.styles[i].n), qlonglong(e.styles[i].n));
    }
    return diffs;
}

ExperimentConfig preset(const std::string& name)
{
    auto text = presetText(name);
    if (!text)
        qFatal("no preset %s", name.c_str());
    auto loaded = loadConfigText(*text, name);
    if (!loaded.config)
        qFatal("preset %s does not load", name.c_str());
    return *loaded.config;
}

const ModelSpec* findModelSpec(const ExperimentConfig& config, const std::string& name)
{
    for (const auto& m : config.models) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

const StyleSpec* findStyleSpec(const ExperimentConfig& config, const std::string& name)
{
    for (const auto& s : config.styles) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

} // namespace

class TestConfigPanel : public QObject {
    Q_OBJECT

    template <typename T> static T* child(ConfigPanel& panel, const char* name)
    {
        auto* widget = panel.findChild<T*>(QString::fromLatin1(name));
        if (!widget)
            qFatal("no widget named %s", name);
        return widget;
    }

private Q_SLOTS:
    void roundTripsEveryPreset_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto& name : presetNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    void roundTripsEveryPreset()
    {
        QFETCH(QString, name);
        const ExperimentConfig original = preset(name.toStdString());
        ConfigPanel panel;
        panel.setConfig(original);
        const QStringList diffs = differences(panel.config(), original);
        QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join(QStringLiteral("; "))));
        QVERIFY2(panel.problems().isEmpty() || original.device != "cpu", qPrintable(panel.problems().join("; ")));
    }

    void roundTripsFieldsThePanelDoesNotShow()
    {
        ExperimentConfig original;
        original.name = "custom";
        original.description = "every hidden field away from its default";
        original.device = "cuda:1";
        original.seed = 9'000'000'000'000'000'000ULL;
        original.targetCiPp = 0.123;
        original.timeBudgetS = 12.345;
        original.warmupMinSteps = 3;
        original.warmupMaxSteps = 7;
        original.optimizer = OptimizerKind::Adam;
        original.learningRate = 0.0042;
        original.gpuEvents = false;
        original.observerControl = true;
        original.sink = { SinkSpec::Kind::File, "logs/run log.txt" };
        // Out of catalog order, with per-model overrides and an unset batch.
        original.models = { { "resnet50", 3, 16, 48, 7, 4, 5, 100 }, { "tiny_mlp", 0, 64, 32, 2, 0, 0, -1 } };
        original.styles = { { "item_every_n", 7 }, { "none", 0 }, { "item", 0 } };
        original.modes = { Mode::CudaGraph, Mode::Eager };
        original.sweep = SweepSpec { { 0, 5000 }, {} };
        original.models[0].sweep = SweepSpec { {}, { 8, 2 } };

        ConfigPanel panel;
        panel.setConfig(original);
        const QStringList diffs = differences(panel.config(), original);
        QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join(QStringLiteral("; "))));
        QCOMPARE(child<QComboBox>(panel, "device")->currentText(), QStringLiteral("cuda:1"));
        // An unset batch shows the catalog's default.
        QCOMPARE(child<QSpinBox>(panel, "batch.tiny_mlp")->value(), 256);
        QCOMPARE(child<QSpinBox>(panel, "n.item_every_n")->value(), 7);
    }

    void setConfigDoesNotEmit()
    {
        ConfigPanel panel;
        QSignalSpy spy(&panel, &ConfigPanel::configChanged);
        panel.setConfig(preset("seed"));
        panel.setConfig(preset("cpu-quick"));
        QCOMPARE(spy.count(), 0);
    }

    void editsEmitAndChangeConfig()
    {
        ConfigPanel panel;
        panel.setConfig(preset("seed"));
        QSignalSpy spy(&panel, &ConfigPanel::configChanged);

        child<QSpinBox>(panel, "stepsPerBlock")->setValue(33);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(panel.config().stepsPerBlock, int64_t(33));

        child<QSpinBox>(panel, "batch.small_resnet")->setValue(17);
        QCOMPARE(findModelSpec(panel.config(), "small_resnet")->batch, int64_t(17));
        QCOMPARE(findModelSpec(panel.config(), "small_resnet")->stepsPerBlock, int64_t(10)); // the override is kept

        child<QCheckBox>(panel, "model.resnet50")->setChecked(false);
        QVERIFY(!findModelSpec(panel.config(), "resnet50"));
        QVERIFY(!child<QSpinBox>(panel, "batch.resnet50")->isEnabled());

        child<QCheckBox>(panel, "style.deferred_async")->setChecked(true);
        QVERIFY(findStyleSpec(panel.config(), "deferred_async"));
        child<QCheckBox>(panel, "style.item")->setChecked(false);
        QVERIFY(!findStyleSpec(panel.config(), "item"));

        child<QSpinBox>(panel, "n.progress_bar_postfix_every_n")->setValue(5);
        QCOMPARE(findStyleSpec(panel.config(), "progress_bar_postfix_every_n")->n, int64_t(5));

        child<QCheckBox>(panel, "mode.cuda_graph")->setChecked(true);
        QCOMPARE(modesText(panel.config().modes), QStringLiteral("eager,cuda_graph"));

        auto* device = child<QComboBox>(panel, "device");
        device->setCurrentIndex(device->findText(QStringLiteral("cuda")));
        QCOMPARE(QString::fromStdString(panel.config().device), QStringLiteral("cuda"));

        child<QSpinBox>(panel, "blocks")->setValue(40);
        child<QSpinBox>(panel, "minBlocks")->setValue(4);
        child<QDoubleSpinBox>(panel, "targetCiPp")->setValue(1.25);
        child<QDoubleSpinBox>(panel, "timeBudgetS")->setValue(30);
        child<QSpinBox>(panel, "hostWorkUs")->setValue(250);
        child<QLineEdit>(panel, "seed")->setText(QStringLiteral("42"));
        const ExperimentConfig edited = panel.config();
        QCOMPARE(edited.blocks, int64_t(40));
        QCOMPARE(edited.minBlocks, int64_t(4));
        QCOMPARE(edited.targetCiPp, 1.25);
        QCOMPARE(edited.timeBudgetS, 30.0);
        QCOMPARE(edited.hostWorkUs, int64_t(250));
        QCOMPARE(edited.seed, uint64_t(42));
        QCOMPARE(spy.count(), 14); // one signal per edit
    }

    void newlyCheckedModelTakesCatalogSizes()
    {
        ConfigPanel panel;
        panel.setConfig(preset("observer")); // tiny_mlp only
        QVERIFY(!child<QSpinBox>(panel, "batch.resnet50")->isEnabled());
        QCOMPARE(child<QSpinBox>(panel, "batch.resnet50")->value(), 64);
        child<QCheckBox>(panel, "model.resnet50")->setChecked(true);
        const ModelSpec* spec = findModelSpec(panel.config(), "resnet50");
        QVERIFY(spec);
        QCOMPARE(spec->batch, int64_t(64));
        QCOMPARE(spec->inputSize, int64_t(224));
        QCOMPARE(spec->classes, int64_t(1000));
        QCOMPARE(spec->hostWorkUs, int64_t(-1));
        QCOMPARE(QString::fromStdString(panel.config().models.front().name), QStringLiteral("tiny_mlp"));
    }

    void baselineCannotBeRemoved()
    {
        ConfigPanel panel;
        panel.setConfig(preset("seed"));
        auto* baseline = child<QCheckBox>(panel, "style.none");
        QVERIFY(baseline->isChecked());
        QVERIFY(!baseline->isEnabled());
    }

    void reportsProblems()
    {
        ConfigPanel panel;
        panel.setConfig(preset("seed-graphs"));
        QVERIFY(panel.problems().isEmpty());

        for (const char* name : { "model.tiny_mlp", "model.small_resnet" })
            child<QCheckBox>(panel, name)->setChecked(false);
        QVERIFY(panel.problems().contains(QStringLiteral("Select at least one model")));

        for (const char* name : { "style.item", "style.item_every_n", "style.gpu_accumulate", "style.deferred_async" })
            child<QCheckBox>(panel, name)->setChecked(false);
        QVERIFY(panel.problems().filter(QStringLiteral("at least one style")).size() == 1);

        auto* device = child<QComboBox>(panel, "device");
        device->setCurrentIndex(device->findText(QStringLiteral("cpu")));
        QCOMPARE(panel.problems().filter(QStringLiteral("cuda_graph needs a CUDA device")).size(), 1);

        child<QCheckBox>(panel, "mode.eager")->setChecked(false);
        child<QCheckBox>(panel, "mode.cuda_graph")->setChecked(false);
        QVERIFY(panel.problems().contains(QStringLiteral("Select at least one mode")));
        QCOMPARE(panel.problems().filter(QStringLiteral("cuda_graph")).size(), 0);

        child<QLineEdit>(panel, "seed")->setText(QString());
        QCOMPARE(panel.problems().filter(QStringLiteral("seed")).size(), 1);
        QCOMPARE(panel.problems().size(), 4);
    }

    void rangesKeepValuesValid()
    {
        ConfigPanel panel;
        panel.setConfig(preset("seed"));
        child<QSpinBox>(panel, "stepsPerBlock")->setValue(0);
        child<QSpinBox>(panel, "n.item_every_n")->setValue(0);
        child<QSpinBox>(panel, "batch.tiny_mlp")->setValue(0);
        child<QSpinBox>(panel, "blocks")->setValue(1);
        child<QSpinBox>(panel, "hostWorkUs")->setValue(-5);
        child<QDoubleSpinBox>(panel, "timeBudgetS")->setValue(0);
        const ExperimentConfig config = panel.config();
        QCOMPARE(config.stepsPerBlock, int64_t(1));
        QCOMPARE(findStyleSpec(config, "item_every_n")->n, int64_t(1));
        QCOMPARE(findModelSpec(config, "tiny_mlp")->batch, int64_t(1));
        QCOMPARE(config.blocks, int64_t(2));
        QCOMPARE(config.hostWorkUs, int64_t(0));
        QVERIFY(config.timeBudgetS > 0);
        // The loader accepts what the panel produces.
        QVERIFY(child<QLineEdit>(panel, "seed")->hasAcceptableInput());
    }

    void runningDisablesEditing()
    {
        ConfigPanel panel;
        panel.setConfig(preset("observer"));
        const char* names[] = { "model.tiny_mlp", "batch.tiny_mlp", "style.item", "n.item_every_n", "mode.eager",
            "device", "stepsPerBlock", "blocks", "minBlocks", "targetCiPp", "timeBudgetS", "hostWorkUs", "seed" };
        panel.setRunning(true);
        for (const char* name : names)
            QVERIFY2(!child<QWidget>(panel, name)->isEnabled(), name);
        panel.setRunning(false);
        for (const char* name : { "model.tiny_mlp", "batch.tiny_mlp", "style.item", "stepsPerBlock", "seed" })
            QVERIFY2(child<QWidget>(panel, name)->isEnabled(), name);
        // Rows of unchecked entries stay locked after the run.
        QVERIFY(!child<QWidget>(panel, "batch.resnet50")->isEnabled());
        QVERIFY(!child<QWidget>(panel, "n.item_every_n")->isEnabled());
    }

    void fitsTheDock()
    {
        ConfigPanel panel;
        panel.setConfig(preset("seed"));
        panel.resize(320, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(keepScreenshot(panel.grab(), QStringLiteral("configpanel")));
        // Nothing hidden behind the scroll bar or cut at the right edge at the dock's size.
        auto* scroll = panel.findChild<QScrollArea*>();
        QVERIFY(scroll);
        QVERIFY(!scroll->verticalScrollBar()->isVisible());
        const int width = scroll->viewport()->width();
        for (auto* group : panel.findChildren<QGroupBox*>())
            QVERIFY2(group->minimumSizeHint().width() <= width, qPrintable(group->title()));
        for (auto* widget : panel.findChildren<QWidget*>()) {
            if (!widget->isVisible() || !widget->objectName().contains(QLatin1Char('.')))
                continue;
            const QRect rect(widget->mapTo(scroll->viewport(), QPoint(0, 0)), widget->size());
            QVERIFY2(scroll->viewport()->rect().contains(rect), qPrintable(widget->objectName()));
        }
    }
};

QTEST_MAIN(TestConfigPanel)
#include "tst_configpanel.moc"
