#pragma once

#include "core/queuemodel/simulator.h"
#include "core/queuemodel/stylereplay.h"
#include "core/queuemodel/taxestimate.h"

#include <QString>
#include <QWidget>
#include <array>
#include <memory>
#include <optional>

class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;

namespace synctax {

class PipelineWidget;
class RegimeHeatmap;
class ReplaySweeps;
class TaxCurveChart;
class TraceLoader;

// The "Teach" view: a live queue model of one training loop (no GPU needed). Sliders set D, G,
// H, L, K, Q and the sync interval; a headline says what syncing every n steps costs there and
// in which regime the loop is; an animated pipeline shows why, with and without the sync; the
// tax-vs-G curve and the regime heatmap place the loop on the map of the middle regime.
// With a launch sequence loaded (a recorded step: teachsequence.cpp) the same view replays it
// instead of the uniform model: D, G and K are the sequence's, H, L, Q and the interval stay live.
class TeachView : public QWidget {
    Q_OBJECT
public:
    explicit TeachView(QWidget* parent = nullptr);

    // The H200 measurements of the three regimes (../shared/MEASURING.md).
    enum class Preset { TinyMlp, ResNet50, SlowInputPipeline };
    void applyPreset(Preset preset);
    static QueueModel presetModel(Preset preset);

    // syncEveryN <= 0: no sync (the baseline only). A uniform model: a loaded sequence is put away.
    void setModel(const QueueModel& model, int64_t syncEveryN);
    QueueModel model() const;
    int64_t syncEveryN() const;

    // What the headline says, and the numbers behind it.
    QString headline() const;
    double taxPct() const { return m_taxPct; }
    QString regime() const { return m_regime; }

    // Finishes the charts' pending (debounced) recomputation now: for tests and screenshots.
    void flush();

    // A recorded launch sequence in place of the sliders' uniform loop. loadLaunchSequence() reads
    // a Kineto trace on a worker (TraceLoader, with progress and Cancel) and replays the median
    // step of importedLoop() with its syncs taken out, L starting at the loop's Python .item().
    void chooseLaunchSequence(); // the file dialog of "Load launch sequence…" (Ctrl+L)
    void loadLaunchSequence(const QString& path);
    // The hook for any other source of a sequence (a results JSON that carries a captured one):
    // `step` as the replay takes it, calibrated to unprofiled timing and without its per-step
    // syncs; `label` names it ("replay of <label>, N launches"); H starts at 0 (the step holds its
    // own host work), `syncUs` sets L when given.
    void setLaunchSequence(const StepSequence& step, const QString& label, std::optional<double> syncUs = {});
    void clearLaunchSequence(); // back to the sliders: D, G, K, H and L as they were before the sequence
    bool hasLaunchSequence() const { return m_sequence != nullptr; }
    // "replay of <file>, N launches" or "uniform model": which model made the numbers shown.
    QString modelLabel() const;
    // D, G and the regime of the loaded sequence at the current H (replayRegime); zero without one.
    ReplayRegime launchSequenceRegime() const;
    TraceLoader* launchSequenceLoader() const { return m_loader; }
    ReplaySweeps* replaySweeps() const { return m_sweeps; }

    PipelineWidget* pipeline() const { return m_pipeline; }
    TaxCurveChart* taxCurve() const { return m_taxCurve; }
    RegimeHeatmap* heatmap() const { return m_heatmap; }

Q_SIGNALS:
    // After any slider, box or preset changed the model (once per change).
    void modelChanged();
    // A launch sequence is shown (its numbers computed), or its load failed (`message` says why).
    void launchSequenceLoaded();
    void launchSequenceFailed(const QString& message);

private:
    enum Parameter { D, G, H, L, K, Q, N, ParameterCount };
    struct Control {
        QSlider* slider = nullptr;
        QDoubleSpinBox* box = nullptr;
        double low = 0;
        double high = 1;
        bool logScale = false;
    };

    QWidget* createControls();
    QWidget* createSequenceControls(QWidget* parent);
    void addControl(QGridLayout* grid, Parameter parameter, const QString& name, const QString& tip, double low,
        double high, bool logScale, int decimals, const QString& suffix);
    double fromSlider(Parameter parameter, int position) const;
    int toSlider(Parameter parameter, double value) const;
    void setValue(Parameter parameter, double value);
    void updateSpeed();
    void modelEdited();
    void showUniform(const QueueModel& m, int64_t n);
    void showReplay(int64_t n);
    QueueModel sequenceModel() const; // the sliders' model with the sequence's D, G and K
    void loadSequenceFromResults(const QString& path);
    void showReplayCharts();
    void setHeadline(const SyncTaxEstimate& estimate, double dMs, double gMs, double hUs, double lUs, int64_t n);
    void setSequenceLoading(bool loading);
    void sequenceFailed(const QString& message);
    void setFixedBySequence(bool fixed);
    void dropSequence();

    std::array<Control, ParameterCount> m_controls;
    bool m_applying = false; // while a preset or setModel() writes several controls
    QLabel* m_headline = nullptr;
    QSlider* m_speed = nullptr;
    QLabel* m_speedLabel = nullptr;
    QPushButton* m_pause = nullptr;
    PipelineWidget* m_pipeline = nullptr;
    TaxCurveChart* m_taxCurve = nullptr;
    RegimeHeatmap* m_heatmap = nullptr;
    double m_taxPct = 0;
    QString m_regime;

    // The launch sequence's side (teachsequence.cpp).
    std::shared_ptr<const StepSequence> m_sequence;
    QString m_sequenceLabel;
    QString m_sequencePath; // the file being loaded
    QueueModel m_slidersBefore; // D, G and K as the sliders had them, restored by clearLaunchSequence()
    QLabel* m_modelLabel = nullptr;
    QPushButton* m_loadButton = nullptr;
    QPushButton* m_backButton = nullptr;
    QPushButton* m_cancelLoad = nullptr;
    QProgressBar* m_loadProgress = nullptr;
    QLabel* m_loadStatus = nullptr;
    TraceLoader* m_loader = nullptr;
    ReplaySweeps* m_sweeps = nullptr;
};

} // namespace synctax
