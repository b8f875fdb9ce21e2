#include "ui/configpanel.h"

#include "core/config/configschema.h"
#include "core/config/modelcatalog.h"
#include "core/config/stylecatalog.h"
#include "ui/torchscriptdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace synctax {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The schema's bounds, so that the panel cannot produce a config that the loader rejects.
void setRange(QSpinBox* spin, const IntegerKey& key) { spin->setRange(int(key.min), int(key.max)); }

std::optional<uint64_t> parseSeed(const QString& text)
{
    bool ok = false;
    const qulonglong value = text.toULongLong(&ok);
    if (!ok || value > qulonglong(configkeys::seed.max))
        return std::nullopt;
    return uint64_t(value);
}

template <typename Spec> const Spec* findSpec(const std::vector<Spec>& specs, const std::string& name)
{
    auto it = std::find_if(specs.begin(), specs.end(), [&](const Spec& s) { return s.name == name; });
    return it == specs.end() ? nullptr : &*it;
}

// Checked entries keep their order in the config that was set (it orders cells in results); entries the
// user added follow in catalog order.
template <typename Spec, typename Row, typename Make>
std::vector<Spec> inConfigOrder(const std::vector<Spec>& original, const std::vector<Row>& rows, Make make)
{
    std::vector<Spec> specs;
    for (const auto& spec : original) {
        auto row = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.name == spec.name; });
        if (row != rows.end() && row->check->isChecked())
            specs.push_back(make(*row, &spec));
    }
    for (const auto& row : rows) {
        if (row.check->isChecked() && !findSpec(original, row.name))
            specs.push_back(make(row, nullptr));
    }
    return specs;
}

} // namespace

ConfigPanel::ConfigPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* content = new QWidget;
    auto* contentLayout = new QVBoxLayout(content);
    for (QGroupBox* group : { createModelsGroup(), createStylesGroup(), createExecutionGroup(), createRunLengthGroup(),
             createWorkloadGroup() }) {
        contentLayout->addWidget(group);
        m_groups.push_back(group);
    }
    contentLayout->addStretch();

    // A dock shorter than the panel scrolls instead of squeezing the editors.
    auto* scroll = new QScrollArea;
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    setConfig(ExperimentConfig {});
}

QGroupBox* ConfigPanel::createModelsGroup()
{
    auto* group = new QGroupBox(tr("Models"));
    auto* layout = new QVBoxLayout(group);
    m_modelsGrid = new QGridLayout;
    for (const auto& model : modelCatalog()) {
        ModelRow row { model.name, new QCheckBox(qs(model.name)), new QSpinBox, std::nullopt, nullptr };
        row.check->setObjectName(qs("model." + model.name));
        row.check->setToolTip(tr("%1\nDefault batch %2").arg(qs(model.description)).arg(model.batch));
        row.batch->setObjectName(qs("batch." + model.name));
        setRange(row.batch, modelkeys::batch);
        row.batch->setPrefix(tr("batch "));
        row.batch->setToolTip(tr("Samples per training step (default %1)").arg(model.batch));
        const int r = m_modelsGrid->rowCount();
        m_modelsGrid->addWidget(row.check, r, 0);
        m_modelsGrid->addWidget(row.batch, r, 1);
        connect(row.check, &QCheckBox::toggled, this, &ConfigPanel::onEdited);
        connect(row.batch, &QSpinBox::valueChanged, this, &ConfigPanel::onEdited);
        m_models.push_back(row);
    }
    m_modelsGrid->setColumnStretch(0, 1);
    layout->addLayout(m_modelsGrid);
    // A flat button: the panel at a dock's height keeps every default row in view.
    auto* add = new QToolButton;
    add->setText(tr("Add your &own model…"));
    add->setObjectName(QStringLiteral("model.addOwn"));
    add->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    add->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder));
    add->setAutoRaise(true);
    add->setToolTip(tr("A TorchScript file of your network: torch.jit.script(model).save(\"model.pt\")"));
    connect(add, &QToolButton::clicked, this, &ConfigPanel::chooseOwnModel);
    layout->setSpacing(2);
    layout->addWidget(add, 0, Qt::AlignLeft);
    return group;
}

void ConfigPanel::chooseOwnModel()
{
    TorchScriptDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    addOwnModel(dialog.model(), true);
    onEdited();
}

void ConfigPanel::addOwnModel(const ModelSpec& model, bool checked)
{
    if (!model.torchscript)
        return;
    const bool wasLoading = m_loading;
    m_loading = true;
    auto existing
        = std::find_if(m_models.begin(), m_models.end(), [&](const ModelRow& r) { return r.name == model.name; });
    if (existing != m_models.end() && !existing->own) {
        m_loading = wasLoading;
        return; // the loader refuses a built-in model's name for one's own
    }
    if (existing == m_models.end()) {
        ModelRow row { model.name, new QCheckBox(qs(model.name)), new QSpinBox, model, new QToolButton };
        row.check->setObjectName(qs("model." + model.name));
        row.batch->setObjectName(qs("batch." + model.name));
        setRange(row.batch, modelkeys::batch);
        row.batch->setPrefix(tr("batch "));
        auto* remove = static_cast<QToolButton*>(row.remove);
        remove->setObjectName(qs("remove." + model.name));
        remove->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
        remove->setToolTip(tr("Remove %1 from the list").arg(qs(model.name)));
        remove->setAutoRaise(true);
        const int r = m_modelsGrid->rowCount();
        m_modelsGrid->addWidget(row.check, r, 0);
        m_modelsGrid->addWidget(row.batch, r, 1);
        m_modelsGrid->addWidget(row.remove, r, 2);
        connect(row.check, &QCheckBox::toggled, this, &ConfigPanel::onEdited);
        connect(row.batch, &QSpinBox::valueChanged, this, &ConfigPanel::onEdited);
        const std::string name = model.name;
        connect(remove, &QToolButton::clicked, this, [this, name] {
            auto it = std::find_if(m_models.begin(), m_models.end(), [&](const ModelRow& r) { return r.name == name; });
            if (it == m_models.end())
                return;
            delete it->check;
            delete it->batch;
            it->remove->deleteLater();
            m_models.erase(it);
            onEdited();
        });
        m_models.push_back(row);
        existing = std::prev(m_models.end());
    }
    existing->own = model;
    QString inputs;
    for (const InputSpec& input : model.torchscript->inputs) {
        QStringList dims;
        for (int64_t d : input.shape)
            dims << QString::number(d);
        inputs += (inputs.isEmpty() ? QString() : QStringLiteral("; "))
            + QStringLiteral("[%1] %2").arg(dims.join(QStringLiteral(", ")), qs(input.dtype));
    }
    const TargetSpec& target = model.torchscript->target;
    existing->check->setToolTip(
        tr("Your own model: %1\nInputs: %2\nTarget: %3")
            .arg(qs(model.torchscript->path), inputs,
                target.kind == TargetSpec::Kind::Classes ? tr("%1 classes (cross-entropy)").arg(target.classes)
                                                         : tr("values (mean squared error)")));
    existing->batch->setValue(int(model.batch));
    existing->check->setChecked(checked);
    updateEnabledRows();
    m_loading = wasLoading;
}

std::vector<ModelSpec> ConfigPanel::ownModels() const
{
    std::vector<ModelSpec> models;
    for (const ModelRow& row : m_models) {
        if (!row.own)
            continue;
        models.push_back(*row.own);
        models.back().batch = row.batch->value();
    }
    return models;
}

QGroupBox* ConfigPanel::createStylesGroup()
{
    auto* group = new QGroupBox(tr("Logging styles"));
    auto* list = new QVBoxLayout(group);
    list->setSpacing(2);
    // The interval sits under its style, indented to the style's name: beside the longest name it would not
    // fit a dock of ~320 px.
    const int indent
        = style()->pixelMetric(QStyle::PM_IndicatorWidth) + style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing);
    for (const auto& info : styleCatalog()) {
        StyleRow row { info.name, new QCheckBox(qs(info.name)), nullptr };
        row.check->setObjectName(qs("style." + info.name));
        row.check->setToolTip(qs(info.summary));
        list->addWidget(row.check);
        if (info.name == baselineStyle()) {
            // Every overhead is measured against the baseline, so a run always includes it.
            row.check->setChecked(true);
            row.check->setEnabled(false);
            row.check->setText(tr("%1 (baseline)").arg(qs(info.name)));
            row.check->setToolTip(tr("%1\nAlways measured: every overhead is relative to it").arg(qs(info.summary)));
        }
        if (info.defaultN > 0) {
            row.n = new QSpinBox;
            row.n->setObjectName(qs("n." + info.name));
            setRange(row.n, stylekeys::n);
            row.n->setPrefix(tr("every "));
            row.n->setSuffix(tr(" steps"));
            row.n->setToolTip(tr("n: steps between reads (default %1)").arg(info.defaultN));
            auto* nRow = new QHBoxLayout;
            nRow->addSpacing(indent);
            nRow->addWidget(row.n);
            nRow->addStretch();
            list->addLayout(nRow);
            connect(row.n, &QSpinBox::valueChanged, this, &ConfigPanel::onEdited);
        }
        connect(row.check, &QCheckBox::toggled, this, &ConfigPanel::onEdited);
        m_styles.push_back(row);
    }
    return group;
}

QGroupBox* ConfigPanel::createExecutionGroup()
{
    auto* group = new QGroupBox(tr("Modes and device"));
    auto* form = new QFormLayout(group);
    m_eager = new QCheckBox(qs(toString(Mode::Eager)));
    m_eager->setObjectName(QStringLiteral("mode.eager"));
    m_eager->setToolTip(tr("Ordinary step by step execution"));
    m_cudaGraph = new QCheckBox(qs(toString(Mode::CudaGraph)));
    m_cudaGraph->setObjectName(QStringLiteral("mode.cuda_graph"));
    m_cudaGraph->setToolTip(tr("The step captured once and replayed as a CUDA graph (needs a CUDA device)"));
    auto* modes = new QHBoxLayout;
    modes->addWidget(m_eager);
    modes->addWidget(m_cudaGraph);
    modes->addStretch();
    form->addRow(tr("Modes"), modes);

    m_device = new QComboBox;
    m_device->setObjectName(QStringLiteral("device"));
    for (const auto& device : configkeys::deviceNames)
        m_device->addItem(qs(device), qs(device));
    m_device->setItemData(m_device->findData(QStringLiteral("auto")),
        tr("The first CUDA device if there is one, else the CPU"), Qt::ToolTipRole);
    form->addRow(tr("Device"), m_device);

    connect(m_eager, &QCheckBox::toggled, this, &ConfigPanel::onEdited);
    connect(m_cudaGraph, &QCheckBox::toggled, this, &ConfigPanel::onEdited);
    connect(m_device, &QComboBox::currentIndexChanged, this, &ConfigPanel::onEdited);
    return group;
}

QGroupBox* ConfigPanel::createRunLengthGroup()
{
    auto* group = new QGroupBox(tr("Run length"));
    auto* form = new QFormLayout(group);
    m_stepsPerBlock = createSpinBox("stepsPerBlock", configkeys::stepsPerBlock,
        tr("Training steps in one block: one style's turn in a round (models may override it)"));
    m_blocks = createSpinBox("blocks", configkeys::blocks, tr("The most rounds a model and mode may run"));
    m_minBlocks = createSpinBox(
        "minBlocks", configkeys::minBlocks, tr("Rounds run before the interval target may stop a model early"));
    m_targetCiPp = createDoubleSpinBox("targetCiPp", configkeys::targetCiPp, 2,
        tr("Stop once every cell's 95% interval is this narrow (half-width, percentage points); "
           "0 runs every round"));
    m_targetCiPp->setSingleStep(0.05);
    m_targetCiPp->setSuffix(tr(" pp"));
    m_timeBudgetS = createDoubleSpinBox(
        "timeBudgetS", configkeys::timeBudgetS, 1, tr("Time per model and mode, warm-up included"));
    m_timeBudgetS->setSuffix(tr(" s"));
    form->addRow(tr("Steps per block"), m_stepsPerBlock);
    form->addRow(tr("Blocks (max rounds)"), m_blocks);
    form->addRow(tr("Min blocks"), m_minBlocks);
    form->addRow(tr("Target CI ±"), m_targetCiPp);
    form->addRow(tr("Time budget/model"), m_timeBudgetS);
    return group;
}

QGroupBox* ConfigPanel::createWorkloadGroup()
{
    auto* group = new QGroupBox(tr("Workload"));
    auto* form = new QFormLayout(group);
    m_hostWorkUs = createSpinBox("hostWorkUs", configkeys::hostWorkUs,
        tr("CPU busy-work added to each step, as a data loader would (models may override it)"));
    m_hostWorkUs->setSuffix(QStringLiteral(" µs"));
    m_seed = new QLineEdit;
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setToolTip(tr("Seeds the weights, the data and the order of styles in each round"));
    m_seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,19}")), m_seed));
    connect(m_seed, &QLineEdit::textChanged, this, &ConfigPanel::onEdited);
    form->addRow(tr("Host work/step"), m_hostWorkUs);
    form->addRow(tr("Seed"), m_seed);
    return group;
}

QSpinBox* ConfigPanel::createSpinBox(const char* objectName, const IntegerKey& key, const QString& toolTip)
{
    auto* spin = new QSpinBox;
    spin->setObjectName(QString::fromLatin1(objectName));
    setRange(spin, key);
    spin->setToolTip(toolTip);
    connect(spin, &QSpinBox::valueChanged, this, &ConfigPanel::onEdited);
    return spin;
}

QDoubleSpinBox* ConfigPanel::createDoubleSpinBox(
    const char* objectName, const NumberKey& key, int decimals, const QString& toolTip)
{
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(QString::fromLatin1(objectName));
    spin->setDecimals(decimals);
    spin->setRange(key.min, key.max);
    spin->setToolTip(toolTip);
    connect(spin, &QDoubleSpinBox::valueChanged, this, &ConfigPanel::onEdited);
    return spin;
}

void ConfigPanel::setConfig(const ExperimentConfig& config)
{
    m_loading = true;
    m_config = config;
    for (auto& row : m_models) {
        const ModelSpec* spec = findSpec(config.models, row.name);
        const int64_t batch = spec && spec->batch > 0 ? spec->batch
            : row.own                                 ? row.own->batch
                                                      : findModel(row.name)->batch;
        row.check->setChecked(spec != nullptr);
        row.batch->setValue(int(batch));
    }
    for (const ModelSpec& model : config.models) {
        if (model.torchscript)
            addOwnModel(model, true);
    }
    for (auto& row : m_styles) {
        const StyleSpec* spec = findSpec(config.styles, row.name);
        if (row.name != baselineStyle())
            row.check->setChecked(spec != nullptr);
        if (row.n)
            row.n->setValue(int(spec && spec->n > 0 ? spec->n : findStyle(row.name)->defaultN));
    }
    const auto hasMode
        = [&](Mode m) { return std::find(config.modes.begin(), config.modes.end(), m) != config.modes.end(); };
    m_eager->setChecked(hasMode(Mode::Eager));
    m_cudaGraph->setChecked(hasMode(Mode::CudaGraph));

    // cuda:N is valid in a config but not offered: show it as one more choice rather than lose it.
    int deviceIndex = m_device->findData(qs(config.device));
    if (deviceIndex < 0) {
        m_device->addItem(qs(config.device), qs(config.device));
        deviceIndex = m_device->count() - 1;
    }
    m_device->setCurrentIndex(deviceIndex);

    m_stepsPerBlock->setValue(int(config.stepsPerBlock));
    m_blocks->setValue(int(config.blocks));
    m_minBlocks->setValue(int(config.minBlocks));
    m_targetCiPp->setValue(config.targetCiPp);
    m_shownTargetCiPp = m_targetCiPp->value();
    m_timeBudgetS->setValue(config.timeBudgetS);
    m_shownTimeBudgetS = m_timeBudgetS->value();
    m_hostWorkUs->setValue(int(config.hostWorkUs));
    m_seed->setText(QString::number(qulonglong(config.seed)));
    updateEnabledRows();
    m_loading = false;
}

ExperimentConfig ConfigPanel::config() const
{
    ExperimentConfig config = m_config;
    config.models = checkedModels();
    config.styles = checkedStyles();
    config.modes = checkedModes();
    config.device = m_device->currentData().toString().toStdString();
    config.stepsPerBlock = m_stepsPerBlock->value();
    config.blocks = m_blocks->value();
    config.minBlocks = m_minBlocks->value();
    if (m_targetCiPp->value() != m_shownTargetCiPp)
        config.targetCiPp = m_targetCiPp->value();
    if (m_timeBudgetS->value() != m_shownTimeBudgetS)
        config.timeBudgetS = m_timeBudgetS->value();
    config.hostWorkUs = m_hostWorkUs->value();
    if (auto seed = parseSeed(m_seed->text()))
        config.seed = *seed;
    return config;
}

std::vector<ModelSpec> ConfigPanel::checkedModels() const
{
    return inConfigOrder(m_config.models, m_models, [](const ModelRow& row, const ModelSpec* original) {
        if (row.own) {
            ModelSpec spec = *row.own;
            spec.batch = row.batch->value();
            return spec;
        }
        const auto defaults = findModel(row.name);
        ModelSpec spec;
        if (original) {
            spec = *original;
        } else {
            spec.name = row.name;
            spec.width = defaults->width;
            spec.inputSize = defaults->inputSize;
            spec.classes = defaults->classes;
        }
        // A config that leaves the batch unset (0) keeps it unset while the catalog default is shown.
        const bool unsetAndUnchanged = original && original->batch <= 0 && row.batch->value() == defaults->batch;
        if (!unsetAndUnchanged)
            spec.batch = row.batch->value();
        return spec;
    });
}

std::vector<StyleSpec> ConfigPanel::checkedStyles() const
{
    auto styles = inConfigOrder(m_config.styles, m_styles, [](const StyleRow& row, const StyleSpec* original) {
        StyleSpec spec = original ? *original : StyleSpec { row.name, 0 };
        if (row.n)
            spec.n = row.n->value();
        return spec;
    });
    // Like the loader, put a baseline the config did not list first.
    if (!findSpec(m_config.styles, baselineStyle())) {
        auto baseline
            = std::find_if(styles.begin(), styles.end(), [](const StyleSpec& s) { return s.name == baselineStyle(); });
        std::rotate(styles.begin(), baseline, baseline + 1);
    }
    return styles;
}

std::vector<Mode> ConfigPanel::checkedModes() const
{
    std::vector<Mode> modes;
    const auto isChecked = [&](Mode m) { return (m == Mode::Eager ? m_eager : m_cudaGraph)->isChecked(); };
    for (Mode m : m_config.modes) {
        if (isChecked(m) && std::find(modes.begin(), modes.end(), m) == modes.end())
            modes.push_back(m);
    }
    for (Mode m : { Mode::Eager, Mode::CudaGraph }) {
        if (isChecked(m) && std::find(modes.begin(), modes.end(), m) == modes.end())
            modes.push_back(m);
    }
    return modes;
}

QStringList ConfigPanel::problems() const
{
    QStringList problems;
    if (std::none_of(m_models.begin(), m_models.end(), [](const ModelRow& r) { return r.check->isChecked(); }))
        problems << tr("Select at least one model");
    const bool anyStyle = std::any_of(m_styles.begin(), m_styles.end(),
        [](const StyleRow& r) { return r.name != baselineStyle() && r.check->isChecked(); });
    if (!anyStyle)
        problems << tr("Select at least one style to compare with the baseline");
    if (!m_eager->isChecked() && !m_cudaGraph->isChecked())
        problems << tr("Select at least one mode");
    if (m_cudaGraph->isChecked() && m_device->currentData().toString() == QLatin1String("cpu"))
        problems << tr("cuda_graph needs a CUDA device, and the device is cpu");
    if (!parseSeed(m_seed->text()))
        problems << tr("The seed must be a whole number from %1 to %2")
                        .arg(qulonglong(configkeys::seed.min))
                        .arg(qulonglong(configkeys::seed.max));
    return problems;
}

void ConfigPanel::setRunning(bool running)
{
    for (QGroupBox* group : m_groups)
        group->setEnabled(!running);
}

void ConfigPanel::onEdited()
{
    updateEnabledRows();
    if (!m_loading)
        Q_EMIT configChanged();
}

void ConfigPanel::updateEnabledRows()
{
    for (auto& row : m_models)
        row.batch->setEnabled(row.check->isChecked());
    for (auto& row : m_styles) {
        if (row.n)
            row.n->setEnabled(row.check->isChecked());
    }
}

} // namespace synctax
