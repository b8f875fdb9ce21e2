#pragma once

#include "core/config/configschema.h"
#include "core/config/experimentconfig.h"

#include <QStringList>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QGroupBox;
class QLineEdit;
class QSpinBox;

namespace synctax {

// Edits the parts of an ExperimentConfig a user changes between runs: models and their batch, styles and
// their interval, modes, device, run length, host work and seed. Everything else in the config (name, sink,
// optimizer, warm-up, per-model size overrides...) is kept from setConfig() and returned unchanged.
//
// Key widgets carry object names for tests and the main window: "model.<name>", "batch.<name>",
// "style.<name>", "n.<name>", "mode.eager", "mode.cuda_graph", "device", "stepsPerBlock", "blocks",
// "minBlocks", "targetCiPp", "timeBudgetS", "hostWorkUs", "seed".
class ConfigPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConfigPanel(QWidget* parent = nullptr);

    // Fills every widget; does not emit configChanged().
    void setConfig(const ExperimentConfig& config);
    ExperimentConfig config() const;

    // What stops the config from running, one sentence each; empty when it can run.
    QStringList problems() const;

    // Locks every editor while a run uses the config.
    void setRunning(bool running);

    // The user's own models (TorchScript files): each is a row beside the built-in ones, kept while
    // presets and configs come and go, checked or not. One of the same name is replaced.
    void addOwnModel(const ModelSpec& model, bool checked);
    std::vector<ModelSpec> ownModels() const; // every own row, checked or not, with its batch
    // Asks for a TorchScript file and its inputs (TorchScriptDialog), then adds it checked.
    void chooseOwnModel();

Q_SIGNALS:
    // Any edit by the user; never for setConfig().
    void configChanged();

private:
    struct ModelRow {
        std::string name;
        QCheckBox* check;
        QSpinBox* batch;
        std::optional<ModelSpec> own; // a TorchScript model's entry; nothing for a built-in one
        QWidget* remove = nullptr;
    };
    struct StyleRow {
        std::string name;
        QCheckBox* check;
        QSpinBox* n; // null for styles without an interval
    };

    QGroupBox* createModelsGroup();
    QGroupBox* createStylesGroup();
    QGroupBox* createExecutionGroup();
    QGroupBox* createRunLengthGroup();
    QGroupBox* createWorkloadGroup();
    QSpinBox* createSpinBox(const char* objectName, const IntegerKey& key, const QString& toolTip);
    QDoubleSpinBox* createDoubleSpinBox(
        const char* objectName, const NumberKey& key, int decimals, const QString& toolTip);

    void onEdited();
    void updateEnabledRows();
    std::vector<ModelSpec> checkedModels() const;
    std::vector<StyleSpec> checkedStyles() const;
    std::vector<Mode> checkedModes() const;

    ExperimentConfig m_config; // the last one set: the source of every field the panel does not show
    // What the double spin boxes showed right after setConfig(): while unchanged, config() returns the
    // exact values of m_config rather than their rounding to the shown decimals.
    double m_shownTargetCiPp = 0;
    double m_shownTimeBudgetS = 0;
    bool m_loading = false;

    std::vector<ModelRow> m_models;
    QGridLayout* m_modelsGrid = nullptr;
    std::vector<StyleRow> m_styles;
    QCheckBox* m_eager = nullptr;
    QCheckBox* m_cudaGraph = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_stepsPerBlock = nullptr;
    QSpinBox* m_blocks = nullptr;
    QSpinBox* m_minBlocks = nullptr;
    QDoubleSpinBox* m_targetCiPp = nullptr;
    QDoubleSpinBox* m_timeBudgetS = nullptr;
    QSpinBox* m_hostWorkUs = nullptr;
    QLineEdit* m_seed = nullptr;
    std::vector<QGroupBox*> m_groups;
};

} // namespace synctax
