#pragma once

#include <QWidget>

class QAction;
class QComboBox;

namespace synctax {

// What the window shows where the comparison table will be, until there is something to compare:
// what to do first (pick a preset, Run, or open a results file), with the controls to do it.
class StartPage : public QWidget {
    Q_OBJECT
public:
    StartPage(QAction* run, QAction* openResults, QWidget* parent = nullptr);

    // The preset the experiment panel holds, or none when it was edited or opened from a file.
    void setCurrentPreset(const QString& name);

Q_SIGNALS:
    void presetChosen(const QString& name);

private:
    QComboBox* m_presets = nullptr;
};

} // namespace synctax
