#pragma once

#include "core/queuemodel/simulator.h"

#include <QString>
#include <QWidget>
#include <array>

class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QSlider;

namespace synctax {

class PipelineWidget;
class RegimeHeatmap;
class TaxCurveChart;

// The "Teach" view: a live queue model of one training loop (no GPU needed). Sliders set D, G,
// H, L, K, Q and the sync interval; a headline says what syncing every n steps costs there and
// in which regime the loop is; an animated pipeline shows why, with and without the sync; the
// tax-vs-G curve and the regime heatmap place the loop on the map of the middle regime.
class TeachView : public QWidget {
    Q_OBJECT
public:
    explicit TeachView(QWidget* parent = nullptr);

    // The H200 measurements of the three regimes (../shared/MEASURING.md).
    enum class Preset { TinyMlp, ResNet50, SlowInputPipeline };
    void applyPreset(Preset preset);
    static QueueModel presetModel(Preset preset);

    // syncEveryN <= 0: no sync (the baseline only).
    void setModel(const QueueModel& model, int64_t syncEveryN);
    QueueModel model() const;
    int64_t syncEveryN() const;

    // What the headline says, and the numbers behind it.
    QString headline() const;
    double taxPct() const { return m_taxPct; }
    QString regime() const { return m_regime; }

    // Finishes the charts' pending (debounced) recomputation now: for tests and screenshots.
    void flush();

    PipelineWidget* pipeline() const { return m_pipeline; }
    TaxCurveChart* taxCurve() const { return m_taxCurve; }
    RegimeHeatmap* heatmap() const { return m_heatmap; }

Q_SIGNALS:
    // After any slider, box or preset changed the model (once per change).
    void modelChanged();

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
    void addControl(QGridLayout* grid, Parameter parameter, const QString& name, const QString& tip, double low,
        double high, bool logScale, int decimals, const QString& suffix);
    double fromSlider(Parameter parameter, int position) const;
    int toSlider(Parameter parameter, double value) const;
    void setValue(Parameter parameter, double value);
    void updateSpeed();
    void modelEdited();

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
};

} // namespace synctax
