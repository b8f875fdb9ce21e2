// The user's own models in the app: the Add Your Own Model dialog on a real TorchScript file
// (tests/data/torchscript/, written by Debian's python3-torch) accepts what trains and keeps a
// module that would fail open with LibTorch's reason; the config panel's row for it goes into the
// config, survives presets, and the main window remembers it across restarts.
#include "core/config/configloader.h"
#include "core/config/configwriter.h"
#include "core/config/presets.h"
#include "ui/configpanel.h"
#include "ui/mainwindow.h"
#include "ui/torchscriptdialog.h"

#include "testfiles.h"
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace synctax;

namespace {

const QString data = QStringLiteral(SYNCTAX_TEST_DATA);

ExperimentConfig preset(const std::string& name)
{
    auto loaded = loadConfigText(*presetText(name), name + ".yaml");
    return *loaded.config;
}

// The dialog filled in for tests/data/torchscript/FILE with one input of `shape`.
void fill(TorchScriptDialog& dialog, const QString& file, const QString& shape, int classes)
{
    dialog.setFile(data + QStringLiteral("/torchscript/") + file);
    dialog.findChild<QLineEdit*>(QStringLiteral("torchscript.shape0"))->setText(shape);
    dialog.findChild<QSpinBox*>(QStringLiteral("torchscript.classes"))->setValue(classes);
}

ModelSpec mlpModel()
{
    TorchScriptDialog dialog;
    fill(dialog, QStringLiteral("mlp.pt"), QStringLiteral("32"), 10);
    dialog.accept();
    return dialog.model();
}

} // namespace

class TestOwnModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTemporaryHome(); }

    void shapesParseAsUsersWriteThem()
    {
        QCOMPARE(TorchScriptDialog::parseShape(QStringLiteral("3, 224, 224")), (std::vector<int64_t> { 3, 224, 224 }));
        QCOMPARE(TorchScriptDialog::parseShape(QStringLiteral("3x32x32")), (std::vector<int64_t> { 3, 32, 32 }));
        QCOMPARE(TorchScriptDialog::parseShape(QStringLiteral("")), std::vector<int64_t> {});
        QVERIFY(!TorchScriptDialog::parseShape(QStringLiteral("3, 0")));
        QVERIFY(!TorchScriptDialog::parseShape(QStringLiteral("three")));
    }

    void aModelThatTrainsIsAccepted()
    {
        TorchScriptDialog dialog;
        fill(dialog, QStringLiteral("mlp.pt"), QStringLiteral("32"), 10);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const ModelSpec model = dialog.model();
        QCOMPARE(model.name, std::string("mlp"));
        QVERIFY(model.torchscript);
        QCOMPARE(model.torchscript->inputs.size(), size_t(1));
        QCOMPARE(model.torchscript->inputs[0].shape, std::vector<int64_t> { 32 });
        QCOMPARE(model.torchscript->target.classes, int64_t(10));
        QCOMPARE(QString::fromStdString(model.torchscript->path),
            QFileInfo(data + QStringLiteral("/torchscript/mlp.pt")).absoluteFilePath());
    }

    void aModelThatWouldFailStaysOpenWithTheReason()
    {
        TorchScriptDialog dialog;
        fill(dialog, QStringLiteral("mlp.pt"), QStringLiteral("16"), 10);
        dialog.accept();
        QVERIFY(dialog.result() != int(QDialog::Accepted));
        const QString error = dialog.findChild<QLabel*>(QStringLiteral("torchscript.error"))->text();
        QVERIFY2(error.contains(QStringLiteral("mat1 and mat2 shapes cannot be multiplied")), qPrintable(error));
        fill(dialog, QStringLiteral("weights.pt"), QStringLiteral("32"), 10);
        dialog.accept();
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("torchscript.error"))
                    ->text()
                    .contains(QStringLiteral("torch.save")));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(keepScreenshot(dialog.grab(), QStringLiteral("own-model-dialog")));
    }

    void twoInputsOfTwoDtypesAndARegressionTarget()
    {
        TorchScriptDialog dialog;
        dialog.setFile(data + QStringLiteral("/torchscript/tokens-and-features.pt"));
        dialog.findChild<QLineEdit*>(QStringLiteral("torchscript.shape0"))->setText(QStringLiteral("12"));
        dialog.findChild<QComboBox*>(QStringLiteral("torchscript.dtype0"))->setCurrentText(QStringLiteral("int64"));
        dialog.findChild<QSpinBox*>(QStringLiteral("torchscript.high0"))->setValue(100);
        QTest::mouseClick(dialog.findChild<QWidget*>(QStringLiteral("torchscript.addInput")), Qt::LeftButton);
        dialog.findChild<QLineEdit*>(QStringLiteral("torchscript.shape1"))->setText(QStringLiteral("8"));
        auto* target = dialog.findChild<QComboBox*>(QStringLiteral("torchscript.target"));
        target->setCurrentIndex(target->findData(QStringLiteral("mse")));
        dialog.findChild<QLineEdit*>(QStringLiteral("torchscript.mseShape"))->setText(QStringLiteral("4"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const TorchScriptSpec script = *dialog.model().torchscript;
        QCOMPARE(script.inputs.size(), size_t(2));
        QCOMPARE(script.inputs[0].dtype, std::string("int64"));
        QCOMPARE(script.inputs[0].high, int64_t(100));
        QVERIFY(script.target.kind == TargetSpec::Kind::Mse);
        QCOMPARE(script.target.shape, std::vector<int64_t> { 4 });
    }

    void theRowGoesIntoTheConfigAndSurvivesPresets()
    {
        ConfigPanel panel;
        panel.setConfig(preset("cpu-quick"));
        panel.addOwnModel(mlpModel(), true);
        panel.findChild<QSpinBox*>(QStringLiteral("batch.mlp"))->setValue(12);
        panel.resize(320, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(keepScreenshot(panel.grab(), QStringLiteral("configpanel-own-model")));
        ExperimentConfig config = panel.config();
        QCOMPARE(config.models.back().name, std::string("mlp"));
        QCOMPARE(config.models.back().batch, int64_t(12));
        QVERIFY(config.models.back().torchscript);
        // What the panel makes, the loader takes (the file is checked to exist).
        const ConfigLoadResult again = loadConfigText(toYaml(config), "panel.yaml");
        QVERIFY2(again.config, formatErrors(again.errors).c_str());

        panel.setConfig(preset("cpu-seed"));
        auto* check = panel.findChild<QCheckBox*>(QStringLiteral("model.mlp"));
        QVERIFY(check);
        QVERIFY(!check->isChecked());
        QCOMPARE(panel.ownModels().size(), size_t(1));
        QTest::mouseClick(panel.findChild<QToolButton*>(QStringLiteral("remove.mlp")), Qt::LeftButton);
        QVERIFY(panel.ownModels().empty());
        QVERIFY(!panel.findChild<QCheckBox*>(QStringLiteral("model.mlp")));
    }

    void theMainWindowRemembersOwnModels()
    {
        QSettings().clear();
        {
            MainWindow w;
            w.setQuiet(true);
            auto* panel = w.findChild<ConfigPanel*>();
            panel->addOwnModel(mlpModel(), false);
            QVERIFY(w.close());
        }
        MainWindow again;
        again.setQuiet(true);
        auto* panel = again.findChild<ConfigPanel*>();
        QCOMPARE(panel->ownModels().size(), size_t(1));
        QCOMPARE(panel->ownModels()[0].torchscript->inputs[0].shape, std::vector<int64_t> { 32 });
        QSettings().clear();
    }
};

QTEST_MAIN(TestOwnModels)
#include "tst_ownmodels.moc"
