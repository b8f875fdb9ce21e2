#pragma once

#include "core/probe/probefolder.h"
#include "core/trace/tracewhatif.h"

#include <QString>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSlider;
class QTableView;

namespace synctax {

class TraceWhatIfModel;

// "What if I logged differently": each logging style's step time and tax replayed on one trace's
// loop, and a host-work slider (0 to 50 ms in 0.5 ms steps) that replays them again as it moves,
// on the window's thread (whatIf over every style takes a few ms; bench/whatif-speed). The loops
// come ready from the load's worker; several files (ranks) are picked in a combo box. A field takes
// the loop's phases timed without the profiler (forward, backward, optimizer in ms, as
// `synctax-run trace --phases-ms`): the loop is then calibrated to them (recalibrated()). Several
// timings (`;` between, one per block of steps, as `--phases-file` has them) replay the host's spread
// over them; that what-if costs about 20 times more (some 120 ms for ResNet-50 on 2 cores), so the
// slider then replays where it is let go, not as it is dragged.
class TraceWhatIfPanel : public QWidget {
    Q_OBJECT
public:
    struct Source {
        QString label; // the file, as the combo box names it
        std::shared_ptr<const ImportedLoop> loop; // null: not prepared (a file built by hand)
        std::shared_ptr<const ProbeFolder> probe; // a probe's folder: the A/B it measured, said beside
    };

    explicit TraceWhatIfPanel(QWidget* parent = nullptr);

    // Replaces the files offered; the one picked stays picked while it is still there (a watched
    // folder adds files), else the first.
    void setSources(std::vector<Source> sources);
    int sourceCount() const { return int(m_sources.size()); }
    int currentSource() const { return m_current; }
    void setCurrentSource(int index);
    const ImportedLoop* currentLoop() const;
    // Any file's loop calibrated as the panel calibrates the one shown (its phase timings): what an
    // export of that file writes.
    ImportedLoop calibrated(const ImportedLoop& loop) const;
    WhatIf whatIfOf(const ImportedLoop& loop) const; // at the slider's host work

    double hostWorkMs() const; // the slider's value
    void setHostWorkMs(double ms); // to the nearest 0.5 ms step within 0 to 50 ms
    const WhatIf& whatIf() const; // the rows shown
    void focusHostWork(); // the slider, for the keyboard

    // The phases field's text taken: "F, B, O" (ms; commas or spaces between), several with `;`
    // between, or empty for none. False, with the reason shown under the field, where a timing is
    // not three numbers of 0.001 to 1e6 ms; the what-if then stays as it was.
    bool setPhasesText(const QString& text);
    // The timing the loop is calibrated to: the one given, or the median of several; none: the trace alone.
    std::optional<std::array<double, 3>> phasesMs() const;
    const std::vector<std::array<double, 3>>& phaseTimings() const { return m_phaseTimings; }
    QLineEdit* phasesEdit() const { return m_phases; }
    QString phasesError() const; // empty when the field's text was taken

    TraceWhatIfModel* model() const { return m_model; }
    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }
    QComboBox* fileBox() const { return m_fileBox; }
    QString hostWorkLabel() const; // "if your data loading took 5.0 ms more per step"
    QString note() const; // the model line and the uncertainty, or why there is no what-if

Q_SIGNALS:
    void whatIfChanged();

private:
    void recompute();
    const ImportedLoop* sourceLoop() const; // the current file's loop as the load built it
    // The note, and below it the A/B the current probe folder measured (beside whatIf, if any).
    QString withProbeAnswer(const QString& note, const WhatIf* whatIf) const;

    std::vector<Source> m_sources;
    int m_current = -1;
    TraceWhatIfModel* m_model = nullptr;
    QComboBox* m_fileBox = nullptr;
    QLabel* m_fileLabel = nullptr;
    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_spin = nullptr;
    QLabel* m_hostLabel = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_note = nullptr;
    QLineEdit* m_phases = nullptr;
    QLabel* m_phasesTitle = nullptr;
    QLabel* m_phasesError = nullptr;
    std::vector<std::array<double, 3>> m_phaseTimings;
    // The current file's loop calibrated to m_phaseTimings, and the loop it was made from.
    std::shared_ptr<const ImportedLoop> m_phased;
    const ImportedLoop* m_phasedFrom = nullptr;
};

} // namespace synctax
