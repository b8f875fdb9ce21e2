#include "ui/torchscriptdialog.h"

#include "core/config/configerror.h"
#include "core/config/configschema.h"
#include "core/config/modelcatalog.h"
#include "core/config/torchscriptentry.h"
#include "core/engine/run/modelcheck.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace synctax {

namespace {

bool isIntegerDtype(const QString& dtype) { return torchscriptkeys::isIntegerDtype(dtype.toStdString()); }

// A form row's label whose mnemonic focuses `buddy` (QFormLayout sets none for a row of a layout).
QLabel* buddyLabel(const QString& text, QWidget* buddy)
{
    auto* label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}

QString shapeTip()
{
    return QObject::tr("One sample's shape, without the batch: 3, 224, 224 for an image; empty for a scalar");
}

} // namespace

TorchScriptDialog::TorchScriptDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Add Your Own Model"));
    auto* form = new QFormLayout;

    m_file = new QLineEdit;
    m_file->setObjectName(QStringLiteral("torchscript.file"));
    m_file->setPlaceholderText(tr("a module saved with torch.jit.script(model).save(PATH)"));
    auto* browse = new QPushButton(tr("&Browse…"));
    browse->setObjectName(QStringLiteral("torchscript.browse"));
    connect(browse, &QPushButton::clicked, this, &TorchScriptDialog::browse);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    form->addRow(buddyLabel(tr("&File:"), m_file), fileRow);

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("torchscript.name"));
    m_name->setToolTip(tr("How tables and charts name it; the file's name by default"));
    form->addRow(tr("&Name:"), m_name);
    connect(m_file, &QLineEdit::textChanged, this, [this](const QString& path) {
        m_name->setPlaceholderText(QString::fromStdString(torchScriptDisplayName(path.toStdString())));
    });

    m_batch = new QSpinBox;
    m_batch->setObjectName(QStringLiteral("torchscript.batch"));
    m_batch->setRange(int(modelkeys::batch.min), int(modelkeys::batch.max));
    m_batch->setValue(int(torchscriptkeys::defaultBatch));
    form->addRow(tr("&Batch:"), m_batch);

    m_inputsLayout = new QVBoxLayout;
    m_inputsLayout->setContentsMargins(0, 0, 0, 0);
    auto* addInputButton = new QPushButton(tr("Add &input"));
    addInputButton->setObjectName(QStringLiteral("torchscript.addInput"));
    auto* removeInputButton = new QPushButton(tr("&Remove last input"));
    removeInputButton->setObjectName(QStringLiteral("torchscript.removeInput"));
    connect(addInputButton, &QPushButton::clicked, this, &TorchScriptDialog::addInput);
    connect(removeInputButton, &QPushButton::clicked, this, &TorchScriptDialog::removeInput);
    auto* inputButtons = new QHBoxLayout;
    inputButtons->addWidget(addInputButton);
    inputButtons->addWidget(removeInputButton);
    inputButtons->addStretch();
    auto* inputs = new QVBoxLayout;
    inputs->addLayout(m_inputsLayout);
    inputs->addLayout(inputButtons);
    form->addRow(tr("Inputs:"), inputs);

    m_targetKind = new QComboBox;
    m_targetKind->setObjectName(QStringLiteral("torchscript.target"));
    m_targetKind->addItem(tr("classes (cross-entropy)"), QStringLiteral("classes"));
    m_targetKind->addItem(tr("values (mean squared error)"), QStringLiteral("mse"));
    m_classes = new QSpinBox;
    m_classes->setObjectName(QStringLiteral("torchscript.classes"));
    m_classes->setRange(int(torchscriptkeys::classes.min), int(torchscriptkeys::classes.max));
    m_classes->setValue(10);
    m_classes->setPrefix(tr("classes "));
    m_mseShape = new QLineEdit;
    m_mseShape->setObjectName(QStringLiteral("torchscript.mseShape"));
    m_mseShape->setPlaceholderText(tr("shape, e.g. 4"));
    m_mseShape->setToolTip(shapeTip());
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_targetKind);
    targetRow->addWidget(m_classes);
    targetRow->addWidget(m_mseShape, 1);
    form->addRow(buddyLabel(tr("&Target:"), m_targetKind), targetRow);
    connect(m_targetKind, &QComboBox::currentIndexChanged, this, &TorchScriptDialog::updateEnabled);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("torchscript.error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &TorchScriptDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &TorchScriptDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    addInput();
    updateEnabled();
    resize(560, sizeHint().height());
}

void TorchScriptDialog::setFile(const QString& path) { m_file->setText(path); }

ModelSpec TorchScriptDialog::model() const { return m_model; }

std::optional<std::vector<int64_t>> TorchScriptDialog::parseShape(const QString& text)
{
    std::vector<int64_t> shape;
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[\\s,x×]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong n = part.toLongLong(&ok);
        if (!ok || n < torchscriptkeys::dimension.min || n > torchscriptkeys::dimension.max)
            return std::nullopt;
        shape.push_back(n);
    }
    if (shape.size() > size_t(torchscriptkeys::maxDimensions))
        return std::nullopt;
    return shape;
}

void TorchScriptDialog::addInput()
{
    if (m_inputs.size() >= size_t(torchscriptkeys::maxInputs))
        return;
    const int index = int(m_inputs.size());
    InputRow row { new QWidget, new QLineEdit, new QComboBox, new QSpinBox };
    row.shape->setObjectName(QStringLiteral("torchscript.shape%1").arg(index));
    row.shape->setPlaceholderText(index == 0 ? tr("shape, e.g. 3, 224, 224") : tr("shape"));
    row.shape->setToolTip(shapeTip());
    row.dtype->setObjectName(QStringLiteral("torchscript.dtype%1").arg(index));
    for (const auto& name : torchscriptkeys::dtype.names())
        row.dtype->addItem(QString::fromStdString(name));
    row.high->setObjectName(QStringLiteral("torchscript.high%1").arg(index));
    row.high->setRange(int(torchscriptkeys::high.min), int(torchscriptkeys::high.max));
    row.high->setValue(1000);
    row.high->setPrefix(tr("below "));
    row.high->setToolTip(tr("Integer inputs (token ids, indices) are drawn from 0 up to this, exclusive"));
    auto* layout = new QHBoxLayout(row.row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("#%1").arg(index + 1)));
    layout->addWidget(row.shape, 1);
    layout->addWidget(row.dtype);
    layout->addWidget(row.high);
    connect(row.dtype, &QComboBox::currentIndexChanged, this, &TorchScriptDialog::updateEnabled);
    m_inputsLayout->addWidget(row.row);
    m_inputs.push_back(row);
    updateEnabled();
    row.shape->setFocus();
}

void TorchScriptDialog::removeInput()
{
    if (m_inputs.size() <= 1)
        return;
    delete m_inputs.back().row;
    m_inputs.pop_back();
}

void TorchScriptDialog::browse()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open TorchScript Model"), m_file->text(), tr("TorchScript modules (*.pt *.pth);;All files (*)"));
    if (!path.isEmpty())
        setFile(path);
}

void TorchScriptDialog::updateEnabled()
{
    const bool classes = m_targetKind->currentData().toString() == QLatin1String("classes");
    m_classes->setVisible(classes);
    m_mseShape->setVisible(!classes);
    for (const InputRow& row : m_inputs)
        row.high->setEnabled(isIntegerDtype(row.dtype->currentText()));
}

std::optional<ModelSpec> TorchScriptDialog::readFields(QString& error) const
{
    const QString file = m_file->text().trimmed();
    if (file.isEmpty()) {
        error = tr("Choose the TorchScript file (Browse…).");
        return std::nullopt;
    }
    if (!QFileInfo(file).isFile()) {
        error = tr("No such file: %1").arg(file);
        return std::nullopt;
    }
    ModelSpec spec;
    TorchScriptSpec script;
    script.path = QFileInfo(file).absoluteFilePath().toStdString();
    spec.name = m_name->text().trimmed().isEmpty() ? torchScriptDisplayName(script.path)
                                                   : m_name->text().trimmed().toStdString();
    if (!isConfigName(spec.name) || findModel(spec.name)) {
        error = tr("'%1' cannot name this model (a built-in model's name, or %2)")
                    .arg(QString::fromStdString(spec.name), QString::fromStdString(nameRule()));
        return std::nullopt;
    }
    spec.batch = m_batch->value();
    for (size_t i = 0; i < m_inputs.size(); ++i) {
        const auto shape = parseShape(m_inputs[i].shape->text());
        if (!shape) {
            error = tr("Input #%1: '%2' is not a shape (dimensions from 1, separated by commas)")
                        .arg(i + 1)
                        .arg(m_inputs[i].shape->text());
            return std::nullopt;
        }
        const QString dtype = m_inputs[i].dtype->currentText();
        script.inputs.push_back(
            { *shape, dtype.toStdString(), isIntegerDtype(dtype) ? int64_t(m_inputs[i].high->value()) : 0 });
    }
    if (m_targetKind->currentData().toString() == QLatin1String("classes")) {
        script.target = { TargetSpec::Kind::Classes, m_classes->value(), {} };
    } else {
        const auto shape = parseShape(m_mseShape->text());
        if (!shape) {
            error = tr("Target: '%1' is not a shape").arg(m_mseShape->text());
            return std::nullopt;
        }
        script.target = { TargetSpec::Kind::Mse, 0, *shape };
    }
    spec.classes = script.target.classes;
    spec.torchscript = script;
    return spec;
}

void TorchScriptDialog::accept()
{
    QString error;
    auto spec = readFields(error);
    if (spec) {
        // The same checks as before a run: the module loaded, one forward and backward on the CPU.
        ExperimentConfig config;
        config.models = { *spec };
        const auto errors = checkModelFiles(config);
        for (const ConfigError& e : errors)
            error += (error.isEmpty() ? QString() : QStringLiteral("\n")) + QString::fromStdString(e.message);
    }
    m_error->setText(error);
    if (!error.isEmpty()) {
        resize(width(), qMax(height(), sizeHint().height())); // room for the message's lines
        return;
    }
    m_model = *spec;
    QDialog::accept();
}

} // namespace synctax
