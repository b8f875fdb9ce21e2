#pragma once

#include "core/config/experimentconfig.h"

#include <QDialog>

#include <optional>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QVBoxLayout;

namespace synctax {

// Add your own model: a TorchScript file (torch.jit.script(model).save(PATH)), a name, the batch,
// each input of its forward (one sample's shape, dtype, the range of integer inputs) and what its
// output is trained against. OK loads the module and runs one forward and backward on the CPU, so a
// file that would fail the run says why here, and the dialog stays open.
class TorchScriptDialog : public QDialog {
    Q_OBJECT
public:
    explicit TorchScriptDialog(QWidget* parent = nullptr);

    void setFile(const QString& path); // as Browse… does, for tests and drops
    ModelSpec model() const; // valid after accept()

    // "3, 224, 224" (commas, spaces or x between) as dimensions; nothing for text that is not one.
    static std::optional<std::vector<int64_t>> parseShape(const QString& text);

    void accept() override;

private:
    struct InputRow {
        QWidget* row;
        QLineEdit* shape;
        QComboBox* dtype;
        QSpinBox* high;
    };

    void addInput();
    void removeInput();
    void browse();
    void updateEnabled();
    std::optional<ModelSpec> readFields(QString& error) const;

    QLineEdit* m_file = nullptr;
    QLineEdit* m_name = nullptr;
    QSpinBox* m_batch = nullptr;
    QVBoxLayout* m_inputsLayout = nullptr;
    std::vector<InputRow> m_inputs;
    QComboBox* m_targetKind = nullptr;
    QSpinBox* m_classes = nullptr;
    QLineEdit* m_mseShape = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    ModelSpec m_model;
};

} // namespace synctax
